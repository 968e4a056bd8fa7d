import { useEffect, useState } from 'react';
import { auth, currentToken, onTokenChange, setToken } from './api';
import { match, navigate, usePath } from './router';
import { AuthPage, ResetPasswordPage } from './pages/AuthPages';
import { BasesPage } from './pages/BasesPage';
import { BasePage } from './pages/BasePage';
import { GridPage } from './pages/GridPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { TokensPage } from './pages/TokensPage';
import { IntegrationsPage } from './pages/IntegrationsPage';

export interface Me { id: string; email: string; }

export function App() {
  const path = usePath();
  const [token, setTokenState] = useState(currentToken());
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => onTokenChange(() => setTokenState(currentToken())), []);
  useEffect(() => {
    if (!token) { setMe(null); return; }
    auth.me().then(setMe, () => setMe(null));
  }, [token]);

  if (path === '/reset-password') return <ResetPasswordPage />;
  if (!token) {
    const mode = path === '/signup' ? 'signup' : path === '/forgot' ? 'forgot' : 'signin';
    return <AuthPage mode={mode} />;
  }
  if (path === '/signin' || path === '/signup') { navigate('/'); return null; }
  const signOut = async () => {
    try { await auth.signOut(); } catch { /* the token is dropped anyway */ }
    setToken(null);
    navigate('/signin');
  };
  const hooksOf = match('/bases/:baseId/tables/:tableId/webhooks', path);
  const grid = match('/bases/:baseId/tables/:tableId', path);
  const base = match('/bases/:baseId', path);
  return (
    <div className="app">
      <header className="topbar">
        <a href="/" className="brand" onClick={(e) => { e.preventDefault(); navigate('/'); }}>Tabula</a>
        <span className="spacer" />
        <nav aria-label="Account">
          {[['/tokens', 'API tokens'], ['/integrations', 'Integrations']].map(([href, label]) => (
            <a key={href} href={href} aria-current={path === href ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate(href); }}>{label}</a>
          ))}
        </nav>
        {me && <span className="who" data-testid="who">{me.email}</span>}
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <main className="content">
        {path === '/tokens' ? <TokensPage />
          : path === '/integrations' ? <IntegrationsPage />
          : hooksOf && me ? <WebhooksPage key={hooksOf.tableId} baseId={hooksOf.baseId} tableId={hooksOf.tableId} me={me} />
          : grid && me ? <GridPage key={grid.tableId} baseId={grid.baseId} tableId={grid.tableId} me={me} />
          : base && me ? <BasePage key={base.baseId} baseId={base.baseId} me={me} />
          : <BasesPage />}
      </main>
    </div>
  );
}
