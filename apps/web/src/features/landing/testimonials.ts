/** The six static testimonials of the landing page (spec §1): rating 5 each. */
export interface Testimonial {
  name: string;
  role: string;
  company: string;
  text: string;
  rating: 5;
  initials: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Sarah Chen',
    role: 'Product Manager',
    company: 'Brightwave',
    text: 'The summaries are so good that half my team stopped taking notes. Action items land in our tracker the same afternoon.',
    rating: 5,
    initials: 'SC',
  },
  {
    name: 'Marcus Johnson',
    role: 'Engineering Lead',
    company: 'Northstack',
    text: 'Nothing to install and it just works in the browser. Live transcripts make our design reviews easy to follow.',
    rating: 5,
    initials: 'MJ',
  },
  {
    name: 'Elena Rodríguez',
    role: 'Head of Sales',
    company: 'Lumio',
    text: 'Live translation changed our calls with customers in Mexico and Spain. Everyone follows in their own language.',
    rating: 5,
    initials: 'ER',
  },
  {
    name: 'David Okafor',
    role: 'Founder',
    company: 'Greenleaf Labs',
    text: 'We save at least three hours a week. The decisions list at the end of each meeting is worth the price alone.',
    rating: 5,
    initials: 'DO',
  },
  {
    name: 'Aiko Tanaka',
    role: 'UX Researcher',
    company: 'Kumo Design',
    text: 'Interviews with transcripts and highlights, ready to share as a PDF. My research workflow is twice as fast.',
    rating: 5,
    initials: 'AT',
  },
  {
    name: 'James Whitfield',
    role: 'Operations Director',
    company: 'Harbor Logistics',
    text: 'Scheduling with calendar invitations, a waiting room and passwords: it has what we need and nothing we do not.',
    rating: 5,
    initials: 'JW',
  },
];
