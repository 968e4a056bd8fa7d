import './instrument';
import { runServiceProcess } from '@tabula/runtime';
import { gatewayService } from './service';

void runServiceProcess(gatewayService);
