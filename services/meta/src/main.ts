import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { metaService } from './service';

void runServiceProcess(metaService);
