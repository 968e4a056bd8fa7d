import type { ServiceDefinition } from '@tabula/runtime';
import { authService } from '../services/auth/src/service';
import { metaService } from '../services/meta/src/service';
import { dataService } from '../services/data/src/service';
import { commentsService } from '../services/comments/src/service';
import { storageService } from '../services/storage/src/service';
import { integrationsService } from '../services/integrations/src/service';
import { hooksService } from '../services/hooks/src/service';
import { realtimeService } from '../services/realtime/src/service';
import { gatewayService } from '../services/gateway/src/service';

/** Every service of Tabula, the gateway last (standalone registers them in this order). */
export const allServices: ServiceDefinition<any, any>[] = [
  authService, metaService, dataService, commentsService, storageService, integrationsService, hooksService, realtimeService, gatewayService,
];
