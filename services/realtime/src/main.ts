import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { realtimeService } from './service';

void runServiceProcess(realtimeService);
