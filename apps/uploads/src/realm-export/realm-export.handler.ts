import { Controller } from '@nestjs/common';
import { Uploads, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DeleteRealmExport } from './delete-realm-export.use-case';
import { ListRealmExportConsents } from './list-realm-export-consents.use-case';
import { ListRealmExports } from './list-realm-exports.use-case';
import { RequestRealmExport } from './request-realm-export.use-case';

/** The organization export endpoints: each decodes and calls its use case. */
@Controller()
export class RealmExportHandler {
  constructor(
    private readonly requestUseCase: RequestRealmExport,
    private readonly listUseCase: ListRealmExports,
    private readonly deleteUseCase: DeleteRealmExport,
    private readonly consentsUseCase: ListRealmExportConsents,
  ) {}

  @CommandHandler(Uploads.exportRealm)
  request(@Payload() payload: PayloadOf<typeof Uploads.exportRealm>) {
    return this.requestUseCase.execute(payload);
  }

  @CommandHandler(Uploads.listRealmExports)
  list(@Payload() payload: PayloadOf<typeof Uploads.listRealmExports>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Uploads.deleteRealmExport)
  remove(@Payload() payload: PayloadOf<typeof Uploads.deleteRealmExport>) {
    return this.deleteUseCase.execute(payload);
  }

  @CommandHandler(Uploads.listRealmExportConsents)
  consents(@Payload() payload: PayloadOf<typeof Uploads.listRealmExportConsents>) {
    return this.consentsUseCase.execute(payload);
  }
}
