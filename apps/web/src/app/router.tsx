import { Navigate, createBrowserRouter, useLocation, useParams, type RouteObject } from 'react-router';
import { LandingPage } from '@/features/landing/LandingPage';
import { RouteError } from '@/features/errors/RouteError';
import { Layout } from './Layout';

/** The older room variants live on in the one room (DESIGN.md): redirect, keeping the query. */
function RoomRedirect() {
  const { meetingId = '' } = useParams();
  const { search } = useLocation();
  return <Navigate replace to={`/meeting/${encodeURIComponent(meetingId)}${search}`} />;
}

/** Every route of the spec's route table. All but the landing page load lazily. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        path: 'schedule',
        lazy: async () => ({ Component: (await import('@/features/meetings/SchedulePage')).SchedulePage }),
      },
      {
        path: 'meetings',
        lazy: async () => ({
          Component: (await import('@/features/meetings/MyMeetingsPage')).MyMeetingsPage,
        }),
      },
      {
        path: 'meetings/:meetingId/notes',
        lazy: async () => ({
          Component: (await import('@/features/collaboration/MeetingNotesPage')).MeetingNotesPage,
        }),
      },
      {
        path: 'meetings/:meetingId/report',
        lazy: async () => ({ Component: (await import('@/features/report/ReportPage')).ReportPage }),
      },
      {
        path: 'settings',
        lazy: async () => ({ Component: (await import('@/features/settings/SettingsPage')).SettingsPage }),
      },
      {
        path: 'background-demo',
        lazy: async () => ({
          Component: (await import('@/features/backgrounds/BackgroundDemoPage')).BackgroundDemoPage,
        }),
      },
      {
        path: 'subscribe',
        lazy: async () => ({
          Component: (await import('@/features/subscription/SubscribePage')).SubscribePage,
        }),
      },
      {
        path: 'subscription-success',
        lazy: async () => ({
          Component: (await import('@/features/subscription/SubscriptionSuccessPage'))
            .SubscriptionSuccessPage,
        }),
      },
      {
        path: 'subscription/confirmation/success',
        lazy: async () => ({
          Component: (await import('@/features/subscription/SubscriptionSuccessPage'))
            .SubscriptionSuccessPage,
        }),
      },
      {
        path: 'subscription/confirmation/:sessionId',
        lazy: async () => ({
          Component: (await import('@/features/subscription/ConfirmationPage')).ConfirmationPage,
        }),
      },
      {
        path: 'video-test',
        lazy: async () => ({ Component: (await import('@/features/devtools/VideoTestPage')).VideoTestPage }),
      },
      {
        path: 'camera-test',
        lazy: async () => ({
          Component: (await import('@/features/devtools/CameraTestPage')).CameraTestPage,
        }),
      },
      {
        path: 'webrtc-test',
        lazy: async () => ({
          Component: (await import('@/features/devtools/WebRtcTestPage')).WebRtcTestPage,
        }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('@/features/errors/NotFoundPage')).NotFoundPage }),
      },
    ],
  },
  {
    path: 'meeting/:meetingId',
    errorElement: <RouteError />,
    lazy: async () => ({ Component: (await import('@/features/room/MeetingRoomPage')).MeetingRoomPage }),
  },
  { path: 'meeting-old/:meetingId', element: <RoomRedirect /> },
  { path: 'meeting-working/:meetingId', element: <RoomRedirect /> },
  { path: 'meeting-fresh/:meetingId', element: <RoomRedirect /> },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
