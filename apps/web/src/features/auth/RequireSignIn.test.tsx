import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequireSignIn } from './RequireSignIn';

const show = (ui: React.ReactElement) => render(<MemoryRouter>{ui}</MemoryRouter>);

describe('RequireSignIn', () => {
  it("shows 'Access Denied' with the page's message and only Go Home (spec §2, settings)", () => {
    show(<RequireSignIn title="Access Denied" message="Please log in to access settings." />);
    expect(screen.getByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText('Please log in to access settings.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'Log In' })).toBeNull();
  });

  it("offers Log In through /api/login beside Go Home on 'Login Required' (spec §2, schedule)", () => {
    show(<RequireSignIn title="Login Required" message="Please log in to schedule meetings." offerLogIn />);
    expect(screen.getByRole('heading', { level: 1, name: 'Login Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/api/login');
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  });

  it("keeps the page's own title above the card, the notice under it", () => {
    show(
      <RequireSignIn
        title="Login Required"
        message="Please log in to see your meetings."
        pageTitle="My Meetings"
        offerLogIn
      />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'My Meetings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Login Required' })).toBeInTheDocument();
  });
});
