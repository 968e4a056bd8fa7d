import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { commentsService } from './service';

void runServiceProcess(commentsService);
