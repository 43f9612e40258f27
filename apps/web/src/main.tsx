import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './i18n/i18n';
import './styles.css';

const client = new QueryClient({
  defaultOptions: {
    // Server state changes through events (events/dispatch), not by refetching on focus or a timer.
    queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
