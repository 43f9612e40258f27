import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { ApiError, api, whenLoggedOut } from '../api/client';
import { LoginPage } from '../auth/LoginPage';
import { ChatApp } from './ChatApp';

export const SESSION = ['session'] as const;

interface Me {
  user_id: number;
  email: string;
  full_name: string;
}

/** The login page or the chat, by whether the browser's session names someone (GET /json/users/me). */
export function App() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const session = useQuery({
    queryKey: SESSION,
    queryFn: async (): Promise<Me | null> => {
      try {
        return await api.get<Me>('/users/me');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    retry: 2,
  });

  useEffect(() => {
    whenLoggedOut(() => {
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION[0] });
      client.setQueryData(SESSION, null);
    });
  }, [client]);

  if (session.isPending) return <p className="loading">{t('Loading…')}</p>;
  if (session.isError) {
    return (
      <main className="login">
        <p role="alert">{t('The server could not be reached. {{error}}', { error: session.error.message })}</p>
        <button type="button" onClick={() => void session.refetch()}>
          {t('Try again')}
        </button>
      </main>
    );
  }
  if (!session.data) return <LoginPage onLoggedIn={() => void client.invalidateQueries({ queryKey: SESSION })} />;
  return <ChatApp key={session.data.user_id} />;
}
