import { http } from '../api/client.ts';
import { toast } from '../feedback.ts';
import { navigateTo } from '../navigation.ts';

interface Hit {
  resourceLabel: string;
  code: string | null;
  link: string | null;
}

/**
 * Opens what a scanned code names — a 流转卡, 派工单, 物料, 库位 or any document or master record
 * whose number or code it is exactly (全局搜索's `/api/v1/search`, the user's permissions
 * applied). Answers whether something opened; else says what was not found.
 */
export async function openScanned(code: string): Promise<boolean> {
  const text = code.trim();
  if (!text) return false;
  const { hits } = await http.get<{ hits: Hit[] }>('/api/v1/search', { q: text });
  const exact = hits.find((h) => h.link && h.code?.toLowerCase() === text.toLowerCase());
  if (!exact?.link) {
    toast.warning(`未找到编号为「${text}」的单据或档案`);
    return false;
  }
  navigateTo(exact.link);
  return true;
}
