import { useState, type FormEvent } from 'react';
import { ApiError, auth, setToken } from '../api';
import { navigate } from '../router';

function Link({ to, children }: { to: string; children: string }) {
  return <a href={to} onClick={(e) => { e.preventDefault(); navigate(to); }}>{children}</a>;
}

/** Sign in, sign up and forgot password. */
export function AuthPage({ mode }: { mode: 'signin' | 'signup' | 'forgot' }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const title = mode === 'signup' ? 'Create your account' : mode === 'forgot' ? 'Reset your password' : 'Sign in to Tabula';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(''); setNotice(''); setBusy(true);
    try {
      if (mode === 'forgot') {
        setNotice((await auth.forgot(email)).msg);
      } else {
        const { token } = mode === 'signup' ? await auth.signUp(email, password) : await auth.signIn(email, password);
        setToken(token);
        navigate('/');
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth">
      <form className="card" onSubmit={submit} aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        <label>E-mail<input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} /></label>
        {mode !== 'forgot' && (
          <label>Password<input type="password" name="password" autoComplete={mode === 'signup' ? 'new-password' : 'current-password'} required value={password} onChange={(e) => setPassword(e.target.value)} /></label>
        )}
        {error && <p className="error" role="alert">{error}</p>}
        {notice && <p className="notice" role="status">{notice}</p>}
        <button type="submit" className="primary" disabled={busy}>{mode === 'signup' ? 'Sign up' : mode === 'forgot' ? 'Send reset link' : 'Sign in'}</button>
        <p className="links">
          {mode !== 'signin' && <Link to="/signin">Sign in</Link>}
          {mode !== 'signup' && <Link to="/signup">Create an account</Link>}
          {mode !== 'forgot' && <Link to="/forgot">Forgot password?</Link>}
        </p>
      </form>
    </main>
  );
}

/**
 * The page the reset e-mail's link opens: `/reset-password#<token>`. The token
 * is in the fragment, which browsers never send to a server (no access log,
 * no Referer), and is posted to the API with the new password.
 */
export function ResetPasswordPage() {
  const [token] = useState(() => decodeURIComponent(location.hash.replace(/^#(token=)?/, '')));
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    try {
      setDone((await auth.reset(token, password)).msg);
      history.replaceState(null, '', '/reset-password');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <main className="auth">
      <form className="card" onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {!token && <p className="error" role="alert">This link has no reset token: open the link from the e-mail.</p>}
        <label>New password<input type="password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} /></label>
        {error && <p className="error" role="alert">{error}</p>}
        {done && <p className="notice" role="status">{done} <Link to="/signin">Sign in</Link></p>}
        <button type="submit" className="primary" disabled={!token || !!done}>Set password</button>
      </form>
    </main>
  );
}
