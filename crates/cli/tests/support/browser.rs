//! A browser stand-in for the web pages' tests over plain HTTP: it keeps the cookies it is
//! given (session, CSRF token, language) and posts forms as a browser does.

/// A browser stand-in: keeps the cookies it is given, posts forms.
pub struct Browser {
    pub agent: ureq::Agent,
    pub base: String,
    pub cookies: Vec<(String, String)>,
    pub set_cookies: Vec<String>,
}

pub struct Page {
    pub status: u16,
    pub location: Option<String>,
    /// How long the browser may keep the answer.
    pub cache_control: Option<String>,
    /// The Content-Security-Policy of the answer.
    pub policy: Option<String>,
    pub body: String,
}

impl Browser {
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

    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

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

    pub fn get(&mut self, path: &str) -> Page {
        let r = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .call()
            .unwrap();
        self.finish(r)
    }

    pub fn csrf(&self) -> String {
        self.cookies
            .iter()
            .find(|(k, _)| k == "sl_csrf")
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

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
}
