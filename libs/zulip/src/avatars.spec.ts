import { avatarUrl, avatarUrls, clientComputesAvatar, configureAvatars, userAvatarPath } from './avatars';

describe('avatarUrl (Zulip get_avatar_field)', () => {
  const gravatarUser = { id: 7, deliveryEmail: ' Someone@Example.COM ', avatarSource: 'G', avatarVersion: 3 };
  const uploader = { ...gravatarUser, avatarSource: 'U' };
  afterEach(() => configureAvatars({ enableGravatar: true, salt: '' }));

  it('Gravatar users: null for a client computing Gravatars, else the versioned Gravatar URL (500 px when medium)', () => {
    configureAvatars({ enableGravatar: true, salt: 's' });
    expect(avatarUrl(gravatarUser, { realmId: 2, clientGravatar: true })).toBeNull();
    expect(avatarUrl(gravatarUser, { realmId: 2 })).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect(avatarUrl(gravatarUser, { realmId: 2, medium: true })).toMatch(/\?d=identicon&s=500&version=3$/);
  });

  it('uploaded avatars: a salted path under /user_avatars/, never null', () => {
    configureAvatars({ enableGravatar: true, salt: 'secret' });
    const path = userAvatarPath(7, 2);
    expect(path).toMatch(/^2\/[0-9a-f]{40}$/);
    expect(avatarUrl(uploader, { realmId: 2, clientGravatar: true })).toBe(`/user_avatars/${path}.png?version=3`);
    expect(avatarUrls(uploader, 2)).toEqual({ avatar_url: `/user_avatars/${path}.png?version=3`, avatar_url_medium: `/user_avatars/${path}-medium.png?version=3` });
    configureAvatars({ enableGravatar: true, salt: 'other' });
    expect(userAvatarPath(7, 2)).not.toBe(path);
  });

  it('with Gravatar off: the default image, and clients never compute it', () => {
    configureAvatars({ enableGravatar: false, salt: '' });
    expect(clientComputesAvatar('G')).toBe(false);
    expect(avatarUrl(gravatarUser, { realmId: 2, clientGravatar: true })).toBe('/static/images/default-avatar.png?version=3');
  });
});
