import { bootstrapService } from '@teamchat/platform';
import { UploadsModule } from './uploads.module';

void bootstrapService('uploads', UploadsModule);
