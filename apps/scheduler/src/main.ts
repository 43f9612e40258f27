import { bootstrapService } from '@teamchat/platform';
import { SchedulerModule } from './scheduler.module';

void bootstrapService('scheduler', SchedulerModule);
