import { ComingSoon } from '@/components/ComingSoon';

export function BackgroundDemoPage() {
  return (
    <ComingSoon
      title="Virtual Background Demo"
      what="Background blur and virtual backgrounds arrive with the background-effects issue."
    />
  );
}
