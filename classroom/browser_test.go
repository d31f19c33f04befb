package classroom

// The phones' page in a real browser: Debian's chromium, headless,
// driven from Go. Skipped, saying so, where no chromium is installed
// (make browser and .ci/browser install it where apt can).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/config"
)

// chromium is the browser to drive, or a skip saying why there is none.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TOOLGATE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("browser test skipped: no chromium on PATH (install Debian's chromium, or run make browser, which does where apt can)")
	return ""
}

// browser is a fresh headless chromium of its own profile.
func browser(t *testing.T, path string, width, height int, lang string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("lang", lang), chromedp.Flag("accept-lang", lang), chromedp.WindowSize(width, height),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// The deadline of a stuck browser: the test's own, never a short clock.
	ctx, cancel3 := context.WithDeadline(ctx, patience(t))
	t.Cleanup(cancel3)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
}

// shots is where the screenshots go: docs/img/web with
// TOOLGATE_SCREENSHOTS=1 (make browser), else the test's own directory.
func shots(t *testing.T) string {
	if os.Getenv("TOOLGATE_SCREENSHOTS") != "" {
		dir := filepath.Join("..", "docs", "img", "web")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		return dir
	}
	return t.TempDir()
}

// run runs one action and fails the test on its error.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	require.NoError(t, err)
	return v
}

// TestBrowserPhone: a phone joins by the QR link, sees the question,
// answers with one tap, the presenter's SSH screen counts it, and the
// reveal reaches the page with its verdict and what it does NOT prove —
// in English and Chinese, at 360×740 and 1280×800, with screenshots.
func TestBrowserPhone(t *testing.T) {
	path := chromium(t)
	dir := shots(t)
	for _, tc := range []struct {
		lang, accept  string
		width, height int
		prompt        string
	}{
		{"en", "en-US", 360, 740, "Which rule fires?"},
		{"zh", "zh-CN", 360, 740, "哪条规则会触发"},
		{"en", "en-US", 1280, 800, "Which rule fires?"},
		{"zh", "zh-CN", 1280, 800, "哪条规则会触发"},
	} {
		t.Run(fmt.Sprintf("%s %dx%d", tc.lang, tc.width, tc.height), func(t *testing.T) {
			srv, addr, _, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
			lecturer := connectWith(t, dialer{auth: []gossh.AuthMethod{answer("orchid")}}, addr, ptyOpts{width: 120, height: 40})
			lecturer.waitFor(t, "You lead the room")
			require.NoError(t, lecturer.send("4"))
			require.NoError(t, lecturer.send("o"))

			ctx := browser(t, path, tc.width, tc.height, tc.accept)
			save := func(what string) {
				shot := run(t, ctx, chromedp.FullScreenshot(100))
				name := filepath.Join(dir, fmt.Sprintf("%s-%dx%d-%s.png", tc.lang, tc.width, tc.height, what))
				require.NoError(t, os.WriteFile(name, shot, 0o644))
			}
			// The QR link: the page joins by itself, and shows the question
			// in the browser's language.
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.JoinURL()), chromedp.WaitVisible(chromedp.CSS(`#prompt`))))
			assert.Contains(t, run(t, ctx, chromedp.Text(chromedp.CSS(`#prompt`))), tc.prompt)
			save("question")
			assert.True(t, run(t, ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`)), "no sideways scrolling")
			assert.True(t, run(t, ctx, chromedp.Evaluate[bool](`Array.from(document.querySelectorAll('button, a')).every(e => e.getBoundingClientRect().height >= 44)`)),
				"every target at least 44 px high")

			// One tap answers; the presenter's screen counts it.
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(`#question li:nth-child(4) button`)),
				chromedp.WaitVisible(chromedp.CSS(`#question button.picked`)),
			))
			lecturer.waitFor(t, "answered 1 of 1")
			save("answered")

			// The reveal reaches the page.
			require.NoError(t, lecturer.send("v"))
			require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#reveal .verdict`))))
			assert.NotEmpty(t, run(t, ctx, chromedp.Text(chromedp.CSS(`#reveal .verdict`))))
			assert.Equal(t, 2, run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('#reveal .notprove li').length`)), "both lines of what it does NOT prove")
			save("reveal")
			lecturer.waitFor(t, "rule 4: 1")
		})
	}
}

// TestBrowserReconnects: the network drops every connection after the
// phone answered, and the lecturer reveals meanwhile: the page comes
// back by itself, with its answer, and shows the reveal.
func TestBrowserReconnects(t *testing.T) {
	path := chromium(t)
	srv, addr, _, _, net := startWebDropping(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connectWith(t, dialer{auth: []gossh.AuthMethod{answer("orchid")}}, addr, ptyOpts{width: 120, height: 40})
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	ctx := browser(t, path, 360, 740, "en-US")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.JoinURL()),
		chromedp.WaitVisible(chromedp.CSS(`#prompt`)),
		chromedp.Click(chromedp.CSS(`#question li:nth-child(3) button`)),
		chromedp.WaitVisible(chromedp.CSS(`#question button.picked`)),
	))
	lecturer.waitFor(t, "answered 1 of 1")
	net.drop()
	require.NoError(t, lecturer.send("v"))
	// Only a stream opened again brings the reveal.
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#reveal .verdict`))))
	assert.Contains(t, run(t, ctx, chromedp.Text(chromedp.CSS(`#reveal .mark`))), "Not this one", "its answer (rule 3) kept and marked")
	assert.True(t, run(t, ctx, chromedp.Evaluate[bool](`document.getElementById("offline").hidden`)), "no longer says it is reconnecting")
}
