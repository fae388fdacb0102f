"""A fake OpenProject API v3 over datasets, served over real HTTP for tests.

``async with FakeOpenProject({"token": dataset}, profile="17.4") as fake:`` then point a client
at ``fake.base_url``. Requests are answered by the fixture backend's own repositories (so the
fake and the fixture backend agree on filters, sorting and paging) and rendered as OpenProject's
HAL+JSON. ``fake.inject(Fault(...))`` makes requests fail; ``fake.requests`` records them.

    async with FakeOpenProject(
        {"token-a": load_demo_dataset(), "token-b": other},  # each token sees its own dataset
        profile="17.3",                       # 16.6 | 17.3 | 17.4/17.5 | 17.6-17.8 | 18.0
        prefix="/openproject",                                # a sub-path install
        non_admin_tokens={"token-b"},                         # 403 on /users for these
    ) as fake:
        fake.inject(Fault(429, r"/work_packages$", times=2, retry_after="1"))
        ...  # requests to fake.base_url ("http://127.0.0.1:PORT/openproject/")
        assert fake.max_in_flight <= 16

``FakeOpenProject(..., oauth=FakeOAuth(signed_in_as="token-a"))`` adds OpenProject's OAuth
provider (``/oauth/authorize``, ``/oauth/token``, ``/oauth/revoke``; see ``oauth``).

Routes, and what each profile lacks (404) or refuses (400), are listed in ``routes.Routes.table``
and ``profiles.PROFILES``.
"""

from tests.support.fake_openproject.oauth import FakeOAuth
from tests.support.fake_openproject.profiles import PROFILES, Profile
from tests.support.fake_openproject.server import FakeOpenProject, Fault, RecordedRequest, token_of
from tests.support.fake_openproject.waves import round_trips, wave_of_each

__all__ = [
    "PROFILES",
    "FakeOAuth",
    "FakeOpenProject",
    "Fault",
    "Profile",
    "RecordedRequest",
    "round_trips",
    "token_of",
    "wave_of_each",
]
