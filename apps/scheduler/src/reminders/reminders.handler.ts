import { Controller } from '@nestjs/common';
import { Scheduler, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateReminder } from './create-reminder.use-case';
import { DeleteReminder } from './delete-reminder.use-case';
import { ListReminders } from './list-reminders.use-case';

@Controller()
export class RemindersHandler {
  constructor(
    private readonly createUseCase: CreateReminder,
    private readonly listUseCase: ListReminders,
    private readonly deleteUseCase: DeleteReminder,
  ) {}

  @CommandHandler(Scheduler.createReminder)
  create(@Payload() payload: PayloadOf<typeof Scheduler.createReminder>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Scheduler.listReminders)
  list(@Payload() payload: PayloadOf<typeof Scheduler.listReminders>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Scheduler.deleteReminder)
  delete(@Payload() payload: PayloadOf<typeof Scheduler.deleteReminder>) {
    return this.deleteUseCase.execute(payload);
  }
}
