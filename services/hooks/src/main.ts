import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { hooksService } from './service';

void runServiceProcess(hooksService);
