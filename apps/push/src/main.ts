import { bootstrapService } from '@teamchat/platform';
import { PushModule } from './push.module';

void bootstrapService('push', PushModule);
