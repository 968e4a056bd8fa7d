import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { integrationsService } from './service';

void runServiceProcess(integrationsService);
