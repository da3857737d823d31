import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { type CSSProperties, useEffect, useRef } from 'react';

// Only the pieces the pages draw: the chunk stays small and loads with the first chart.
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type EChartOption = echarts.EChartsCoreOption;

/** An ECharts chart that follows its option and its container's size. */
export function EChart({
  option,
  style,
  testId,
}: {
  option: EChartOption;
  style?: CSSProperties;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts>(undefined);
  useEffect(() => {
    if (!box.current) return;
    const c = echarts.init(box.current);
    chart.current = c;
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(box.current);
    return () => {
      resize.disconnect();
      c.dispose();
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return <div ref={box} data-testid={testId} style={{ height: 300, width: '100%', ...style }} />;
}
