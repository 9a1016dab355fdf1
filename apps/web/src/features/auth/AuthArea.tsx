import { Crown, LogIn, LogOut, Settings } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useSubscriptionStatus } from '@/features/subscription/api';
import { useUser } from './api';

/** Header auth area (spec §2): loading text; Go Premium + Login; or Pro badge, name, Settings, Logout. */
export function AuthArea({ onNavigate }: { onNavigate?: () => void }) {
  const { user, isLoading } = useUser();
  const { data: status } = useSubscriptionStatus(user?.email ?? null);

  if (isLoading) {
    return <span className="text-sm text-slate-500">Loading...</span>;
  }

  if (!user) {
    return (
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button
          asChild
          variant="ghost"
          size="sm"
          className="justify-start sm:justify-center"
          onClick={onNavigate}
        >
          <Link to="/subscribe">
            <Crown /> Go Premium
          </Link>
        </Button>
        <Button asChild size="sm">
          <a href="/api/login">
            <LogIn /> Login
          </a>
        </Button>
      </div>
    );
  }

  const isPro = !!status?.isActive;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      {isPro ? (
        <Badge variant="pro" className="ml-3 self-start sm:ml-0 sm:self-auto" data-testid="pro-badge">
          <Crown className="size-3" /> Pro
        </Badge>
      ) : (
        <Button
          asChild
          variant="ghost"
          size="sm"
          className="justify-start sm:justify-center"
          onClick={onNavigate}
        >
          <Link to="/subscribe">
            <Crown /> Go Premium
          </Link>
        </Button>
      )}
      <span className="px-3 py-1 text-sm font-semibold sm:px-2 sm:py-0" data-testid="user-name">
        {user.firstName || user.email}
      </span>
      <Button
        asChild
        variant="ghost"
        size="sm"
        className="justify-start sm:justify-center"
        onClick={onNavigate}
      >
        <Link to="/settings">
          <Settings /> Settings
        </Link>
      </Button>
      <Button asChild variant="secondary" size="sm">
        <a href="/api/logout">
          <LogOut /> Logout
        </a>
      </Button>
    </div>
  );
}
