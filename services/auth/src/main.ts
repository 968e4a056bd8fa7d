import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { authService } from './service';

void runServiceProcess(authService);
