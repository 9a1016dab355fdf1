import { PRO_PLAN } from '@parley/protocol/constants';
import { Crown, ShieldCheck } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { AiInDevelopmentNote, PRO_FEATURES, ProFeatureItem } from './pro-features';

/** The Pro plan: 9.99 a month, struck 29.99, 67% off, 30-day money-back guarantee (spec §1, §9). */
export function PlanCard() {
  return (
    <Card className="relative overflow-hidden border-brand-200 dark:border-brand-900" data-testid="plan-card">
      <div className="absolute inset-x-0 top-0 h-1.5 bg-gradient-to-r from-brand-600 to-fuchsia-600" />
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            <Crown className="size-5 text-amber-500" /> {PRO_PLAN.name}
          </CardTitle>
          <Badge variant="success">{PRO_PLAN.discountLabel}</Badge>
        </div>
        <div className="mt-2 flex items-baseline gap-3">
          <span className="text-4xl font-bold tracking-tight">${PRO_PLAN.priceLabel}</span>
          <span className="text-slate-500">/{PRO_PLAN.interval}</span>
          <s className="text-lg text-slate-400" aria-label={`was $${PRO_PLAN.strikePriceLabel}`}>
            ${PRO_PLAN.strikePriceLabel}
          </s>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col gap-2 text-sm">
          {PRO_FEATURES.map((item) => (
            <ProFeatureItem key={item.text} item={item} />
          ))}
        </ul>
        <AiInDevelopmentNote className="rounded-lg bg-amber-50 p-3 text-amber-900 dark:bg-amber-950 dark:text-amber-100" />
        <p className="flex items-center gap-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
          <ShieldCheck className="size-4 shrink-0" />
          {PRO_PLAN.moneyBackGuaranteeDays}-day money-back guarantee · Cancel anytime
        </p>
      </CardContent>
    </Card>
  );
}
