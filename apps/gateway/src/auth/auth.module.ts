import { Module } from '@nestjs/common';
import { CredentialCache } from './credential-cache';

/** One credential cache per gateway process, shared by the auth guard and the events poll. */
@Module({
  providers: [CredentialCache],
  exports: [CredentialCache],
})
export class AuthModule {}
