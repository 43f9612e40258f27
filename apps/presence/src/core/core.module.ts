import { Module } from '@nestjs/common';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';

/** What every presence feature shares: the read-only view of people. */
@Module({
  providers: [PeopleReadonlyRepository],
  exports: [PeopleReadonlyRepository],
})
export class PresenceCoreModule {}
