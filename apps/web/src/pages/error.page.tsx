import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../platform/session.ts';

function ErrorPage({ status, title, text }: { status: '404' | '403'; title: string; text: string }) {
  const navigate = useNavigate();
  const signedIn = useSession((s) => Boolean(s.token));
  useEffect(() => {
    document.title = `${title} - RingMES`;
  }, [title]);
  return (
    <div className="rm-error-page">
      <Result
        status={status}
        title={<span data-testid="error-title">{title}</span>}
        subTitle={text}
        extra={[
          <Button key="home" type="primary" onClick={() => navigate(signedIn ? '/home/info' : '/login')}>
            {signedIn ? '返回首页' : '去登录'}
          </Button>,
          <Button key="back" onClick={() => navigate(-1)}>
            返回上一页
          </Button>,
        ]}
      />
    </div>
  );
}

/** /404: the page does not exist. */
export function NotFoundPage() {
  return (
    <ErrorPage
      status="404"
      title="404 页面不存在"
      text="抱歉，您访问的页面不存在或已被移除，请检查地址是否正确。"
    />
  );
}

/** /401: the page exists but the user's roles do not grant it. */
export function UnauthorizedPage() {
  return (
    <ErrorPage
      status="403"
      title="401 无权访问"
      text="抱歉，您没有访问该页面的权限。如需开通，请联系系统管理员分配角色。"
    />
  );
}
