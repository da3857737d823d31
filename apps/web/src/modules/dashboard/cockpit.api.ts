import { http } from '../../platform/api/client.ts';

export interface CockpitMetric {
  label: string;
  value: string | number;
  tone?: 'danger' | 'warning';
  link?: string;
  suffix?: string;
}

export interface CockpitCard {
  key: string;
  title: string;
  metrics: CockpitMetric[];
  rows?: { text: string; sub?: string; tone?: 'danger' | 'warning'; link?: string }[];
  more?: string;
}

export const cockpitApi = {
  cards: () => http.get<{ cards: CockpitCard[] }>('/api/v1/cockpit/cards'),
};
