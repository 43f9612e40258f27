import type { User } from '../api/types';

/** A person's avatar (the server's avatar_url): decorative beside their name unless given a text. */
export function Avatar({ user, size = 32, alt = '' }: { user: Pick<User, 'avatar_url' | 'full_name'>; size?: number; alt?: string }) {
  const src = user.avatar_url;
  if (!src) return <span className={`avatar avatar-${size}`} aria-hidden="true" />;
  return <img className={`avatar avatar-${size}`} src={src} width={size} height={size} alt={alt} />;
}
