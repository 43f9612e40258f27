import { Controller, Injectable, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Realtime, } from '@teamchat/contracts';
import { DbModule } from '@teamchat/db';
import { CommandHandler } from '@teamchat/platform';

/** The part of POST /register's initial state this service owns. */
@Injectable()
export class RegisterStateReader {
  async read(_request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    return {};
  }
}

@Controller()
export class RegisterStateHandler {
  constructor(private readonly reader: RegisterStateReader) {}

  @CommandHandler(Realtime.registerState.messaging)
  read(@Payload() payload: Realtime.RegisterStateRequest) {
    return this.reader.read(payload);
  }
}

@Module({
  imports: [DbModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader],
})
export class RegisterStateModule {}
