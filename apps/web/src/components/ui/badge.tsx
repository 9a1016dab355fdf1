import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

const badgeVariants = cva('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold', {
  variants: {
    variant: {
      default: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
      brand: 'bg-brand-100 text-brand-700 dark:bg-brand-900 dark:text-brand-100',
      pro: 'bg-gradient-to-r from-amber-400 to-orange-500 text-white',
      success: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-900 dark:text-emerald-100',
      danger: 'bg-red-100 text-red-700 dark:bg-red-900 dark:text-red-100',
      warning: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-100',
    },
  },
  defaultVariants: { variant: 'default' },
});

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
