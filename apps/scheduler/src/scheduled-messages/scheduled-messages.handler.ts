import { Controller } from '@nestjs/common';
import { Realtime, Scheduler, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateScheduledMessage } from './create-scheduled-message.use-case';
import { DeleteScheduledMessage } from './delete-scheduled-message.use-case';
import { ListScheduledMessages } from './list-scheduled-messages.use-case';
import { UpdateScheduledMessage } from './update-scheduled-message.use-case';
import { ListReminders } from '../reminders/list-reminders.use-case';

@Controller()
export class ScheduledMessagesHandler {
  constructor(
    private readonly createUseCase: CreateScheduledMessage,
    private readonly listUseCase: ListScheduledMessages,
    private readonly updateUseCase: UpdateScheduledMessage,
    private readonly deleteUseCase: DeleteScheduledMessage,
    private readonly listReminders: ListReminders,
  ) {}

  @CommandHandler(Scheduler.createScheduledMessage)
  create(@Payload() payload: PayloadOf<typeof Scheduler.createScheduledMessage>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Scheduler.listScheduledMessages)
  list(@Payload() payload: PayloadOf<typeof Scheduler.listScheduledMessages>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Scheduler.updateScheduledMessage)
  update(@Payload() payload: PayloadOf<typeof Scheduler.updateScheduledMessage>) {
    return this.updateUseCase.execute(payload);
  }

  @CommandHandler(Scheduler.deleteScheduledMessage)
  delete(@Payload() payload: PayloadOf<typeof Scheduler.deleteScheduledMessage>) {
    return this.deleteUseCase.execute(payload);
  }

  /** POST /register's `scheduled_messages` and `reminders`. */
  @CommandHandler(Realtime.registerState.scheduler)
  async registerState(@Payload() request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    const [scheduled, reminders] = await Promise.all([
      Realtime.wants(request, 'scheduled_messages') ? this.listUseCase.execute(request) : {},
      Realtime.wants(request, 'reminders') ? this.listReminders.execute(request) : {},
    ]);
    return { ...scheduled, ...reminders };
  }
}
