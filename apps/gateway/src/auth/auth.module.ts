import { Module } from '@nestjs/common';
import { AdmitCaller } from './admit-caller';
import { ApiRateLimit } from './api-rate-limit';
import { CredentialCache } from './credential-cache';

/** One credential cache and rate limit per gateway process, shared by the auth guard, the command routes and the events poll. */
@Module({
  providers: [CredentialCache, ApiRateLimit, AdmitCaller],
  exports: [CredentialCache, AdmitCaller],
})
export class AuthModule {}
