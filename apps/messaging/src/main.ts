import { bootstrapService } from '@teamchat/platform';
import { MessagingModule } from './messaging.module';

void bootstrapService('messaging', MessagingModule);
