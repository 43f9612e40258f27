import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Realtime, Scheduler, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { CreateScheduledMessage } from './create-scheduled-message.use-case';
import { DeleteScheduledMessage } from './delete-scheduled-message.use-case';
import { ListScheduledMessages } from './list-scheduled-messages.use-case';
import { UpdateScheduledMessage } from './update-scheduled-message.use-case';

@Controller()
export class ScheduledMessagesHandler {
  constructor(
    private readonly createUseCase: CreateScheduledMessage,
    private readonly listUseCase: ListScheduledMessages,
    private readonly updateUseCase: UpdateScheduledMessage,
    private readonly deleteUseCase: DeleteScheduledMessage,
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

  /** POST /register's `scheduled_messages`. */
  @CommandHandler(Realtime.registerState.scheduler)
  async registerState(@Payload() request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    if (!Realtime.wants(request, 'scheduled_messages')) return {};
    return this.listUseCase.execute(request);
  }
}
