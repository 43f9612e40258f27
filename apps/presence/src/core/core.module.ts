import { Module } from '@nestjs/common';
import { PeopleReadonly } from './people.readonly';

/** What every presence feature shares: the read-only view of people. */
@Module({
  providers: [PeopleReadonly],
  exports: [PeopleReadonly],
})
export class PresenceCoreModule {}
