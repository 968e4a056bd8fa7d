import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { dataService } from './service';

void runServiceProcess(dataService);
