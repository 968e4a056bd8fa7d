import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { storageService } from './service';

void runServiceProcess(storageService);
