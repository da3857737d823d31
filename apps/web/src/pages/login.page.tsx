import './login.css';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../platform/api/errors.ts';
import { useBrand } from '../platform/brand.ts';
import { builtPages } from '../platform/menu/built-pages.ts';
import { safeRedirect } from '../platform/navigation.ts';
import { prefetchAppChunks, preloadPage } from '../platform/page.ts';
import { login, useSession } from '../platform/session.ts';
import { Logo } from '../platform/ui/logo.tsx';

interface Values {
  userName: string;
  passWord: string;
}

/** What the product offers, by menu area; the page lists only areas with finished pages. */
const FEATURES = [
  ['/sale-manage', '销售管理', '销售订单审核、发货与退货跟踪'],
  ['/purchase', '采购管理', '采购订单、到货入库与退货'],
  ['/production-department', '生产执行', '车加工、磨加工、检测、装配四大车间派工报工'],
  ['/warehouse-logistics', '仓储物流', '出入库、调拨、盘点与库存台账'],
  ['/quality-testing', '质量追溯', '来料、过程、出货检验与测量统计'],
  ['/factory-info', '工厂建模', '物料、BOM、工艺路线、客户与供应商主数据'],
] as const;

/** The features whose area has at least one finished page. */
function features() {
  const paths = [...builtPages()];
  return FEATURES.filter(([prefix]) => paths.some((p) => p.startsWith(`${prefix}/`)));
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = useSession((s) => s.token);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const redirect = safeRedirect(params.get('redirect'));
  const brand = useBrand();

  useEffect(() => {
    document.title = '登录 - RingMES 轴承制造管理系统';
    prefetchAppChunks();
  }, []);

  // Already signed in: continue into the app.
  if (token && !submitting) return <Navigate to={redirect} replace />;

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    setError(null);
    // The page to open after sign-in loads while the sign-in request is in flight.
    preloadPage(redirect);
    try {
      // Its first data is asked for by the route guard, alongside the user's menu.
      await login(values.userName, values.passWord);
      navigate(redirect, { replace: true });
    } catch (e) {
      setError(isApiError(e) && e.message ? e.message : '登录失败，请稍后重试');
      setSubmitting(false);
    }
  };

  return (
    <div className="rm-login">
      <section className="rm-login-brand" aria-hidden="true">
        <div className="rm-login-brand-inner">
          <div className="rm-login-logo">
            {brand?.logo ? (
              <img src={brand.logo} alt="" style={{ height: 56, maxWidth: 160, objectFit: 'contain' }} />
            ) : (
              <Logo size={56} />
            )}
            <div>
              <div className="rm-login-product">RingMES</div>
              <div className="rm-login-product-sub">轴承制造管理系统</div>
            </div>
          </div>
          <h1 className="rm-login-slogan">精密制造 · 数字协同</h1>
          <p className="rm-login-lead">
            面向轴承制造企业的一体化 ERP / MES 平台，贯通从订单到交付的每一道工序。
          </p>
          <ul className="rm-login-features" data-testid="login-features">
            {features().map(([, title, text]) => (
              <li key={title}>
                <strong>{title}</strong>
                <span>{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="rm-login-rings" />
      </section>
      <section className="rm-login-panel">
        <div className="rm-login-card">
          <div className="rm-login-card-logo">
            {brand?.logo ? (
              <img src={brand.logo} alt="" style={{ height: 40, maxWidth: 120, objectFit: 'contain' }} />
            ) : (
              <Logo size={40} />
            )}
            <span>RingMES 轴承制造管理系统</span>
          </div>
          {brand?.companyName && (
            <div className="rm-login-company" data-testid="login-company">
              {brand.companyName}
            </div>
          )}
          <h2 className="rm-login-title">账号登录</h2>
          <p className="rm-login-subtitle">欢迎回来，请使用您的系统账号登录</p>
          {error && (
            <Alert
              type="error"
              showIcon
              title={error}
              closable={{ onClose: () => setError(null) }}
              className="rm-login-error"
              data-testid="login-error"
            />
          )}
          <Form<Values>
            size="large"
            onFinish={onFinish}
            autoComplete="on"
            requiredMark={false}
            layout="vertical"
          >
            <Form.Item
              name="userName"
              rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}
              normalize={(v: string) => v?.replace(/^\s+/, '')}
            >
              <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="passWord" rules={[{ required: true, message: '请输入密码' }]}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
            </Form.Item>
            <Form.Item style={{ marginBottom: 8 }}>
              <Button type="primary" htmlType="submit" block loading={submitting}>
                {submitting ? '登录中…' : '登 录'}
              </Button>
            </Form.Item>
          </Form>
          <div className="rm-login-hint">如忘记密码，请联系系统管理员重置</div>
        </div>
        <footer className="rm-login-footer">© {new Date().getFullYear()} RingMES · 轴承制造管理系统</footer>
      </section>
    </div>
  );
}
