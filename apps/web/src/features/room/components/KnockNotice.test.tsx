import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { KnockNotice, type Knock } from './KnockNotice';

function setup(waiting: Knock[]) {
  const props = { onAdmit: vi.fn(), onDeny: vi.fn(), onShowAll: vi.fn() };
  const view = render(<KnockNotice waiting={waiting} {...props} />);
  return { ...props, rerender: (w: Knock[]) => view.rerender(<KnockNotice waiting={w} {...props} />) };
}

describe('KnockNotice', () => {
  it('announces one knock by name and admits or denies that guest from the keyboard', async () => {
    const { onAdmit, onDeny } = setup([{ id: 'g1', name: 'Gus' }]);
    expect(screen.getByRole('alert')).toHaveTextContent('Gus wants to join');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Hide this notice' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Admit Gus' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onAdmit).toHaveBeenCalledWith('g1');
    await userEvent.tab();
    await userEvent.keyboard(' ');
    expect(onDeny).toHaveBeenCalledWith('g1');
  });

  it('shows the newest knocks first and sends the rest to the People panel', async () => {
    const waiting = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'].map((name, i) => ({ id: `g${i}`, name }));
    const { onShowAll } = setup(waiting);
    expect(screen.getByRole('alert')).toHaveTextContent('5 people want to join');
    const admits = screen
      .getAllByRole('button', { name: /^Admit / })
      .map((b) => b.getAttribute('aria-label'));
    expect(admits).toEqual(['Admit Eve', 'Admit Dee', 'Admit Cy']);
    await userEvent.click(screen.getByRole('button', { name: '+2 more waiting: view all' }));
    expect(onShowAll).toHaveBeenCalled();
  });

  it('goes away when the knock is handled anywhere, and Hide lasts until the next knock', async () => {
    const { rerender } = setup([{ id: 'g1', name: 'Gus' }]);
    rerender([]);
    expect(screen.queryByTestId('knock-notice')).toBeNull();
    rerender([{ id: 'g1', name: 'Gus' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Hide this notice' }));
    expect(screen.queryByTestId('knock-notice')).toBeNull();
    rerender([
      { id: 'g1', name: 'Gus' },
      { id: 'g2', name: 'Hal' },
    ]);
    expect(screen.getByRole('alert')).toHaveTextContent('Hal wants to join');
    expect(screen.queryByRole('button', { name: 'Admit Gus' })).toBeNull();
  });
});
