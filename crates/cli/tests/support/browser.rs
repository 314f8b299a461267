//! A browser stand-in for the web pages' tests over plain HTTP: it keeps the cookies it is
//! given (session, CSRF token, language) and posts forms as a browser does.

/// A browser stand-in: keeps the cookies it is given, posts forms.
pub struct Browser {
    /// The HTTP client (no redirects followed, every status an answer).
    pub agent: ureq::Agent,
    /// The server's address.
    pub base: String,
    /// The cookies kept, by name.
    pub cookies: Vec<(String, String)>,
    /// Every `Set-Cookie` header received, as sent.
    pub set_cookies: Vec<String>,
}

/// An answer as the tests read it.
pub struct Page {
    /// The HTTP status.
    pub status: u16,
    /// Where a redirect sends the browser.
    pub location: Option<String>,
    /// How long the browser may keep the answer.
    pub cache_control: Option<String>,
    /// The Content-Security-Policy of the answer.
    pub policy: Option<String>,
    /// The page.
    pub body: String,
}

impl Browser {
    /// A browser without cookies for the server at `base`.
    pub fn new(base: &str) -> Browser {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .build()
            .into();
        Browser {
            agent,
            base: base.to_string(),
            cookies: Vec::new(),
            set_cookies: Vec::new(),
        }
    }

    /// The `Cookie` header of the kept cookies.
    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Keeps the cookies an answer sets (an empty value removes one).
    pub fn keep(&mut self, response: &ureq::http::Response<ureq::Body>) {
        for c in response.headers().get_all("set-cookie") {
            let text = c.to_str().unwrap().to_string();
            let (pair, _) = text.split_once(';').unwrap_or((&text, ""));
            let (k, v) = pair.split_once('=').unwrap();
            self.cookies.retain(|(name, _)| name != k);
            if !v.is_empty() {
                self.cookies.push((k.to_string(), v.to_string()));
            }
            self.set_cookies.push(text);
        }
    }

    /// Reads an answer, keeping its cookies.
    pub fn finish(&mut self, mut response: ureq::http::Response<ureq::Body>) -> Page {
        self.keep(&response);
        Page {
            status: response.status().as_u16(),
            location: response
                .headers()
                .get("location")
                .map(|l| l.to_str().unwrap().to_string()),
            cache_control: response
                .headers()
                .get("cache-control")
                .map(|l| l.to_str().unwrap().to_string()),
            policy: response
                .headers()
                .get("content-security-policy")
                .map(|l| l.to_str().unwrap().to_string()),
            body: response.body_mut().read_to_string().unwrap_or_default(),
        }
    }

    /// Gets a page with the kept cookies.
    pub fn get(&mut self, path: &str) -> Page {
        let r = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .call()
            .unwrap();
        self.finish(r)
    }

    /// The CSRF token of the `sl_csrf` cookie.
    pub fn csrf(&self) -> String {
        self.cookies
            .iter()
            .find(|(k, _)| k == "sl_csrf")
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// Posts form fields as they are (with an `Origin` header if given).
    pub fn post(&mut self, path: &str, fields: &[(&str, &str)], origin: Option<&str>) -> Page {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        let mut r = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .header("Content-Type", "application/x-www-form-urlencoded");
        if let Some(o) = origin {
            r = r.header("Origin", o);
        }
        let r = r.send(body).unwrap();
        self.finish(r)
    }

    /// Posts a form of the judge's own, with this browser's CSRF token.
    pub fn send(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let csrf = self.csrf();
        let mut all = vec![("csrf", csrf.as_str())];
        all.extend_from_slice(fields);
        self.post(path, &all, None)
    }

    /// Signs up `name` (`NAME@example.org`, password `long enough`) from the home page.
    pub fn sign_up(&mut self, name: &str) {
        self.get("/");
        let csrf = self.csrf();
        let email = format!("{name}@example.org");
        let page = self.post(
            "/signup",
            &[
                ("csrf", &csrf),
                ("name", name),
                ("email", &email),
                ("password", "long enough"),
                ("lang", "en"),
            ],
            None,
        );
        assert_eq!(page.status, 303, "{}", page.body);
        assert_eq!(page.location.as_deref(), Some("/games"));
    }

    /// Logs in as `name` with `password` (the answer must send the browser to its games).
    pub fn log_in(&mut self, name: &str, password: &str) {
        self.get("/");
        let csrf = self.csrf();
        let page = self.post(
            "/login",
            &[("csrf", &csrf), ("name", name), ("password", password)],
            None,
        );
        assert_eq!(page.status, 303, "{}", page.body);
    }
}
