import { bootstrapService } from '@teamchat/platform';
import { UsersGroupsModule } from './users-groups.module';

void bootstrapService('users-groups', UsersGroupsModule);
