import { QueryClient } from '@tanstack/react-query';

/** The app's one query cache (main.tsx provides it; lib/signed-in.ts hands it to the sync loops). */
export const queryClient = new QueryClient({
  defaultOptions: {
    // The API client already toasts failures; retrying a 4xx would only repeat the toast.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});
