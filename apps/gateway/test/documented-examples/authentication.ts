import { documentedExample } from './world';

documentedExample('fetch-api-key', async (world) => {
  const { api_key, email, user_id } = await world.succeeds<{ api_key: string; email: string; user_id: number }>('fetch-api-key', {
    params: { username: world.iago.email, password: world.iago.password },
    as: undefined,
  });
  expect({ api_key, email, user_id }).toEqual({ api_key: world.iago.apiKey, email: world.iago.email, user_id: world.iago.id });
});
