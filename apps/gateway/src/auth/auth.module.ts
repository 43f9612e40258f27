import { Module } from '@nestjs/common';
import { AdmitCaller } from './admit-caller';
import { ApiRateLimit } from './api-rate-limit';
import { CredentialCache } from './credential-cache';
import { Sessions } from './sessions';

/** One credential cache, session store and rate limit per gateway process, shared by the auth guard, the command routes, the events poll and the login. */
@Module({
  providers: [CredentialCache, Sessions, ApiRateLimit, AdmitCaller],
  exports: [CredentialCache, Sessions, ApiRateLimit, AdmitCaller],
})
export class AuthModule {}
