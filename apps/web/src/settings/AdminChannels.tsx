import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi, type FormBody, type Schema } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { GroupSettingSelect } from './group-settings';
import { Outcome, useOutcome } from './outcome';

/** A channel as GET /streams lists it. */
export type Channel = Schema<'Channel'>;

export const CHANNELS = ['streams'] as const;

/**
 * The organization's channels (#organization/channels): create one (public or private, in a
 * folder), then each one's privacy, folder and who may post or administer it; and the channel
 * folders (create one). The stream and channel_folder events keep the page current.
 */
export function AdminChannels({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const channels = useQuery({
    queryKey: CHANNELS,
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/streams', { params: { query: { include_all: 'true' } }, signal }))).streams,
  });
  const { outcome, run } = useOutcome();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [folder, setFolder] = useState('');
  const [folderName, setFolderName] = useState('');
  const folders = state.folders.filter((f) => !f.is_archived);

  function create(event: FormEvent) {
    event.preventDefault();
    void run(() =>
      ok(
        typedApi.POST('/users/me/subscriptions', {
          body: {
            subscriptions: [{ name: name.trim(), description: description.trim() }],
            invite_only: isPrivate,
            ...(folder !== '' ? { folder_id: Number(folder) } : {}),
          },
        }),
      ),
    ).then((done) => {
      if (!done) return;
      setName('');
      setDescription('');
      setPrivate(false);
      void client.invalidateQueries({ queryKey: CHANNELS });
    });
  }

  const change = (channel: Channel, body: FormBody<'/streams/{stream_id}', 'patch'>) => void run(() => ok(typedApi.PATCH('/streams/{stream_id}', { params: { path: { stream_id: channel.stream_id } }, body })));

  return (
    <>
      <form aria-label={t('Create channel')} onSubmit={create}>
        <h2>{t('Create channel')}</h2>
        <label htmlFor="channel-name">{t('Channel name')}</label>
        <input id="channel-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={60} />
        <label htmlFor="channel-description">{t('Description')}</label>
        <input id="channel-description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1024} />
        <label className="choice">
          <input type="checkbox" checked={isPrivate} onChange={(event) => setPrivate(event.target.checked)} /> {t('Private')}
        </label>
        <label htmlFor="channel-folder">{t('Folder')}</label>
        <select id="channel-folder" value={folder} onChange={(event) => setFolder(event.target.value)}>
          <option value="">{t('No folder')}</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={name.trim() === ''}>
          {t('Create channel')}
        </button>
      </form>
      <form
        aria-label={t('Create folder')}
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => ok(typedApi.POST('/channel_folders/create', { body: { name: folderName.trim(), description: '' } }))).then((done) => done && setFolderName(''));
        }}
      >
        <h2>{t('Channel folders')}</h2>
        <ul aria-label={t('Channel folders')}>
          {folders.map((f) => (
            <li key={f.id}>{f.name}</li>
          ))}
        </ul>
        <label htmlFor="folder-name">{t('Folder name')}</label>
        <input id="folder-name" value={folderName} onChange={(event) => setFolderName(event.target.value)} required maxLength={60} />
        <button type="submit" disabled={folderName.trim() === ''}>
          {t('Create folder')}
        </button>
      </form>
      <Outcome outcome={outcome} />
      <table aria-label={t('Channels')}>
        <thead>
          <tr>
            <th scope="col">{t('Name')}</th>
            <th scope="col">{t('Privacy')}</th>
            <th scope="col">{t('Folder')}</th>
            <th scope="col">{t('Who can post')}</th>
            <th scope="col">{t('Who can administer')}</th>
          </tr>
        </thead>
        <tbody>
          {(channels.data ?? []).map((channel) => (
            <tr key={channel.stream_id}>
              <th scope="row">{channel.name}</th>
              <td>
                <select
                  aria-label={t('Privacy of #{{channel}}', { channel: channel.name })}
                  value={channel.invite_only ? 'private' : 'public'}
                  onChange={(event) => change(channel, { is_private: event.target.value === 'private' })}
                >
                  <option value="public">{t('Public')}</option>
                  <option value="private">{t('Private')}</option>
                </select>
              </td>
              <td>
                <select
                  aria-label={t('Folder of #{{channel}}', { channel: channel.name })}
                  value={channel.folder_id ?? ''}
                  onChange={(event) => change(channel, { folder_id: event.target.value === '' ? null : Number(event.target.value) })}
                >
                  <option value="">{t('No folder')}</option>
                  {folders.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <GroupSettingSelect
                  state={state}
                  label={t('Who can post to #{{channel}}', { channel: channel.name })}
                  value={channel.can_send_message_group}
                  onChange={(id) => change(channel, { can_send_message_group: { new: id } })}
                />
              </td>
              <td>
                <GroupSettingSelect
                  state={state}
                  label={t('Who can administer #{{channel}}', { channel: channel.name })}
                  value={channel.can_administer_channel_group}
                  onChange={(id) => change(channel, { can_administer_channel_group: { new: id } })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
