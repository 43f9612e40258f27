import { bootstrapService } from '@teamchat/platform';
import { PresenceModule } from './presence.module';

void bootstrapService('presence', PresenceModule);
