import { SetMetadata } from '@nestjs/common';
import type { AuthMode } from '@teamchat/contracts';

export type { AuthMode };

export const AUTH_MODE = Symbol('AUTH_MODE');
export const Auth = (mode: AuthMode) => SetMetadata(AUTH_MODE, mode);
