import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, logIn } from '../api/client';

/** Email and password, posted to /accounts/login, which starts the browser session. */
export function LoginPage({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await logIn(email, password);
      setPassword('');
      onLoggedIn();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('The server could not be reached. Try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <h1>{t('Log in')}</h1>
      <form onSubmit={(event) => void submit(event)} aria-label={t('Log in')}>
        <label htmlFor="login-email">{t('Email')}</label>
        <input id="login-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        <label htmlFor="login-password">{t('Password')}</label>
        <input id="login-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('Log in')}
        </button>
      </form>
    </main>
  );
}
