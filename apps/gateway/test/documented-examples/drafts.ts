import { NO_SUCH_ID, documentedExample, unique, type ExampleWorld } from './world';

interface Draft {
  id: number;
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** Zulip's documented draft, to Denmark, with content of its own. */
const draft = (world: ExampleWorld, content = unique('What are the contribution guidelines for this project?')) => ({
  ...world.example<Draft[]>('create-drafts', 'drafts')[0],
  to: [world.channel('Denmark').id],
  content,
});

const drafts = async (world: ExampleWorld) => (await world.succeeds<{ count: number; drafts: Draft[] }>('get-drafts')).drafts;

async function createDraft(world: ExampleWorld, content?: string): Promise<number> {
  const { ids } = await world.succeeds<{ ids: number[] }>('create-drafts', { params: { drafts: [draft(world, content)] } });
  return ids[0];
}

documentedExample('create-drafts', async (world) => {
  const one = draft(world);
  const direct = { type: 'private', to: [world.hamlet.id], topic: '', content: unique('A direct draft'), timestamp: one.timestamp };
  const { ids } = await world.succeeds<{ ids: number[] }>('create-drafts', { params: { drafts: [one, direct] } });
  expect(ids).toHaveLength(2);
  const stored = await drafts(world);
  expect(stored.find((d) => d.id === ids[0])).toMatchObject({ type: 'stream', to: one.to, topic: one.topic, content: one.content, timestamp: one.timestamp });
  expect(stored.find((d) => d.id === ids[1])).toMatchObject({ type: 'private', to: [world.hamlet.id], content: direct.content });
  // Zulip's documented error: a channel draft to two channels.
  const two = await world.fails('create-drafts', { params: { drafts: [{ ...one, to: [world.channel('Denmark').id, world.channel('Verona').id] }] } }, 400);
  expect(two.msg).toBe('Must specify exactly 1 channel ID for channel messages');
});

documentedExample('get-drafts', async (world) => {
  const id = await createDraft(world);
  const answer = await world.succeeds<{ count: number; drafts: Draft[] }>('get-drafts');
  expect(answer.count).toBe(answer.drafts.length);
  expect(answer.drafts.map((d) => d.id)).toContain(id);
  // Only the caller's own.
  const hamlets = await world.succeeds<{ drafts: Draft[] }>('get-drafts', { as: world.hamlet });
  expect(hamlets.drafts.map((d) => d.id)).not.toContain(id);
});

documentedExample('edit-draft', async (world) => {
  const draft_id = await createDraft(world);
  const edited = { ...world.example<Draft>('edit-draft', 'draft'), to: [world.channel('Denmark').id] };
  await world.succeeds('edit-draft', { path: { draft_id }, params: { draft: edited } });
  expect((await drafts(world)).find((d) => d.id === draft_id)).toMatchObject({ content: edited.content, topic: edited.topic, to: edited.to });
  const missing = await world.fails('edit-draft', { path: { draft_id: NO_SUCH_ID }, params: { draft: edited } }, 404);
  expect(missing.msg).toBe('Draft does not exist');
});

documentedExample('delete-draft', async (world) => {
  const draft_id = await createDraft(world);
  await world.succeeds('delete-draft', { path: { draft_id } });
  expect((await drafts(world)).map((d) => d.id)).not.toContain(draft_id);
  const gone = await world.fails('delete-draft', { path: { draft_id } }, 404);
  expect(gone.msg).toBe('Draft does not exist');
});

interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

const snippets = async (world: ExampleWorld) => (await world.succeeds<{ saved_snippets: SavedSnippet[] }>('get-saved-snippets')).saved_snippets;

async function createSnippet(world: ExampleWorld, title = unique(world.example<string>('create-saved-snippet', 'title'))): Promise<number> {
  const content = world.example<string>('create-saved-snippet', 'content');
  const { saved_snippet_id } = await world.succeeds<{ saved_snippet_id: number }>('create-saved-snippet', { params: { title, content } });
  return saved_snippet_id;
}

documentedExample('create-saved-snippet', async (world) => {
  const title = unique(world.example<string>('create-saved-snippet', 'title'));
  const id = await createSnippet(world, title);
  expect((await snippets(world)).find((s) => s.id === id)).toMatchObject({ title, content: world.example('create-saved-snippet', 'content') });
  const empty = await world.fails('create-saved-snippet', { params: { title: '', content: 'Welcome to the organization.' } }, 400);
  // The description's example words it "Title cannot be empty."; Zulip's view now refuses it by
  // its parameter's constraint (StringConstraints(min_length=1)), worded as ours.
  expect(empty.msg).toBe('title cannot be blank');
});

documentedExample('get-saved-snippets', async (world) => {
  const id = await createSnippet(world);
  expect((await snippets(world)).map((s) => s.id)).toContain(id);
  const hamlets = await world.succeeds<{ saved_snippets: SavedSnippet[] }>('get-saved-snippets', { as: world.hamlet });
  expect(hamlets.saved_snippets.map((s) => s.id)).not.toContain(id);
});

documentedExample('edit-saved-snippet', async (world) => {
  const saved_snippet_id = await createSnippet(world);
  const title = unique(world.example<string>('edit-saved-snippet', 'title'));
  const content = unique(world.example<string>('edit-saved-snippet', 'content'));
  await world.succeeds('edit-saved-snippet', { path: { saved_snippet_id }, params: { title, content } });
  expect((await snippets(world)).find((s) => s.id === saved_snippet_id)).toMatchObject({ title, content });
  const missing = await world.fails('edit-saved-snippet', { path: { saved_snippet_id: NO_SUCH_ID }, params: { title } }, 404);
  expect(missing.msg).toBe('Saved snippet does not exist.');
});

documentedExample('delete-saved-snippet', async (world) => {
  const saved_snippet_id = await createSnippet(world);
  await world.succeeds('delete-saved-snippet', { path: { saved_snippet_id } });
  expect((await snippets(world)).map((s) => s.id)).not.toContain(saved_snippet_id);
  const gone = await world.fails('delete-saved-snippet', { path: { saved_snippet_id } }, 404);
  expect(gone.msg).toBe('Saved snippet does not exist.');
});

interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

const views = async (world: ExampleWorld) => (await world.succeeds<{ navigation_views: NavigationView[] }>('get-navigation-views')).navigation_views;

/** A custom view of a topic of Denmark's of its own, added as Iago. */
async function addView(world: ExampleWorld): Promise<NavigationView> {
  const name = unique('Castle');
  const view = { fragment: `narrow/channel/${world.channel('Denmark').id}-Denmark/topic/${encodeURIComponent(name)}`, is_pinned: false, name };
  await world.succeeds('add-navigation-view', { params: { ...view } });
  return view;
}

documentedExample('add-navigation-view', async (world) => {
  // Zulip's documented view: alerted messages, pinned, by a name.
  const fragment = world.example<string>('add-navigation-view', 'fragment');
  const documented = { fragment, is_pinned: world.example<boolean>('add-navigation-view', 'is_pinned'), name: world.example<string>('add-navigation-view', 'name') };
  // By Cordelia, so that the documented view is new whoever else ran first.
  await world.succeeds('add-navigation-view', { params: documented, as: world.cordelia });
  const cordelias = await world.succeeds<{ navigation_views: NavigationView[] }>('get-navigation-views', { as: world.cordelia });
  expect(cordelias.navigation_views).toContainEqual(documented);
  // Zulip's documented 400s: the same view again; a built-in view by a name.
  const again = await world.fails('add-navigation-view', { params: documented, as: world.cordelia }, 400);
  expect(again.msg).toBe('Navigation view already exists.');
  const named = await world.fails('add-navigation-view', { params: { fragment: 'inbox', is_pinned: true, name: 'My inbox' } }, 400);
  expect(named.msg).toBe('Built-in views cannot have a custom name.');
});

documentedExample('get-navigation-views', async (world) => {
  const view = await addView(world);
  expect(await views(world)).toContainEqual(view);
  const hamlets = await world.succeeds<{ navigation_views: NavigationView[] }>('get-navigation-views', { as: world.hamlet });
  expect(hamlets.navigation_views.map((v) => v.fragment)).not.toContain(view.fragment);
});

documentedExample('edit-navigation-view', async (world) => {
  const view = await addView(world);
  const name = unique(world.example<string>('edit-navigation-view', 'name'));
  await world.succeeds('edit-navigation-view', { path: { fragment: view.fragment }, params: { is_pinned: true, name } });
  expect(await views(world)).toContainEqual({ fragment: view.fragment, is_pinned: true, name });
  // Zulip's documented errors: a built-in view by a name (400); a view the caller does not have (404).
  const builtIn = await world.fails('edit-navigation-view', { path: { fragment: 'inbox' }, params: { name: 'My inbox' } }, 400);
  expect(builtIn.msg).toMatch(/^Built-in views cannot have a custom name/);
  // (The description's example has code NOT_FOUND; Zulip's ResourceNotFoundError, which
  // zerver/lib/navigation_views.py raises, has the default BAD_REQUEST, as its DELETE example shows.)
  const missing = await world.fails('edit-navigation-view', { path: { fragment: `${view.fragment}-nowhere` }, params: { is_pinned: false } }, 404);
  expect(missing.msg).toBe('Navigation view does not exist.');
});

documentedExample('remove-navigation-view', async (world) => {
  const view = await addView(world);
  await world.succeeds('remove-navigation-view', { path: { fragment: view.fragment } });
  expect((await views(world)).map((v) => v.fragment)).not.toContain(view.fragment);
  const gone = await world.fails('remove-navigation-view', { path: { fragment: view.fragment } }, 404);
  expect(gone.msg).toBe('Navigation view does not exist.');
});
