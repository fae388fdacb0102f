"""An invented company workspace at scale, for the at-scale relevance benchmark.

``generate()`` writes, deterministically (``random.Random`` with a fixed seed, standard library
only), a dataset document in the format of ``dataset-format.md``: Kestrel Freight & Pay, a
mid-sized logistics and payments company with six projects (warehouse logistics, payments, the
mobile app, people & HR, infrastructure, the customer portal), about 1,500 work packages with
descriptions, comments and change-only activities spread over two years of ``updatedAt``
dates, about 330 meetings with agenda items, notes, outcomes and participants, and about 90
wiki pages. People carry accented names (Jürgen Weiß, Małgorzata Nowak, Zoë Dubois...).

The filler text is assembled from the vocabularies of several domains (logistics, payments,
mobile, HR, infrastructure, the portal) and from one shared stock of verbs, problems and
remarks, so common words really are common ("export", "timeout", "review", "update") and many
records are near misses of each other: "birth" beside "berth", "portal feedback" beside
"port fee", "Docker" beside "dock", "release" beside "lease", "agenda" beside "agent".

Ids grow with time, as in OpenProject: work package 1 and meeting 1 are the oldest. The
``Workspace`` helpers rewrite one record in place (``plant_work_package``, ``plant_meeting``,
``plant_wiki_page``) so a benchmark can put its targets anywhere in that history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

SEED = 20_240_603
START = datetime(2024, 6, 3, 8, 0, tzinfo=UTC)
END = datetime(2026, 5, 29, 17, 0, tzinfo=UTC)

WORK_PACKAGES = 1500
MEETINGS = 330
WIKI_PAGES = 90
WIKI_LINKS = 40

Document = dict[str, Any]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# People ---------------------------------------------------------------------------------------

USERS: tuple[tuple[str, str], ...] = (
    ("Jürgen Weiß", "jweiss"),
    ("Małgorzata Nowak", "mnowak"),
    ("Zoë Dubois", "zdubois"),
    ("José Álvarez", "jalvarez"),
    ("François Lefèvre", "flefevre"),
    ("Björn Åkesson", "bakesson"),
    ("Chloé Martin", "cmartin"),
    ("Inês Gonçalves", "igoncalves"),
    ("Renée Lambert", "rlambert"),
    ("Aylin Yıldız", "ayildiz"),
    ("Dario Rossi", "drossi"),
    ("Priya Raman", "praman"),
    ("Kenji Satō", "ksato"),
    ("Helga Brandt", "hbrandt"),
    ("Ben Carter", "bcarter"),
    ("Sara Lindqvist", "slindqvist"),
    ("Lukas Fischer", "lfischer"),
    ("Amélie Roux", "aroux"),
    ("Marek Dvořák", "mdvorak"),
    ("Eva Horváth", "ehorvath"),
    ("Tomás Ó Briain", "tobriain"),
    ("Nadia Haddad", "nhaddad"),
    ("Oliver Grant", "ogrant"),
    ("Camille Bernard", "cbernard"),
)


# Projects and their vocabularies ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Domain:
    """What one project's records talk about."""

    identifier: str
    name: str
    description: str
    nouns: tuple[str, ...]
    systems: tuple[str, ...]
    places: tuple[str, ...]
    teams: tuple[str, ...]
    series: tuple[str, ...]  # recurring meeting titles
    wiki_titles: tuple[str, ...]


DOMAINS: tuple[Domain, ...] = (
    Domain(
        "logi",
        "Warehouse & Logistics",
        "Warehouses, carriers, customs and everything that moves pallets.",
        (
            "pallet label",
            "shipment manifest",
            "carrier booking",
            "forklift rota",
            "picking route",
            "packing station",
            "dock door",
            "freight invoice",
            "customs declaration",
            "cross-dock plan",
            "returns bay",
            "stock count",
            "bin location",
            "delivery slot",
            "container booking",
            "loading ramp",
            "cold storage log",
            "label printer",
            "handheld scanner",
            "wave planning",
            "proof of delivery",
            "carrier rate card",
            "yard schedule",
            "inbound appointment",
        ),
        ("WMS", "TMS", "carrier API", "yard management", "EDI gateway"),
        ("Hall B", "Rotterdam hub", "Leipzig warehouse", "Gdańsk depot", "Zaragoza site", "Lyon cross-dock"),
        ("warehouse ops", "transport planning", "customs desk"),
        ("Warehouse ops weekly", "Carrier performance review", "Peak season readiness", "Site safety walk"),
        (
            "Warehouse glossary",
            "Carrier onboarding checklist",
            "Customs declaration guide",
            "Dock door allocation",
            "Label printer setup",
            "Returns bay process",
            "Stock count procedure",
            "Forklift licence records",
            "Cold storage temperature log",
            "Inbound appointment rules",
            "EDI gateway troubleshooting",
            "Yard schedule conventions",
            "Peak season playbook",
            "Cross-dock handbook",
            "Proof of delivery archive",
        ),
    ),
    Domain(
        "pay",
        "Payments Platform",
        "Checkout payments, payouts, the ledger and month-end close.",
        (
            "payout batch",
            "refund request",
            "chargeback case",
            "ledger entry",
            "settlement file",
            "card token",
            "invoice run",
            "VAT rounding",
            "payment provider",
            "3-D Secure challenge",
            "dunning letter",
            "reconciliation report",
            "fraud rule",
            "currency conversion",
            "webhook signature",
            "checkout session",
            "credit limit",
            "payment method",
            "month-end close",
            "bank statement import",
            "tax report",
            "merchant statement",
        ),
        ("ledger service", "billing API", "checkout", "PSP gateway", "fraud engine"),
        ("EU region", "UK entity", "Polish entity", "marketplace sellers"),
        ("payments core", "finance ops", "risk team"),
        ("Payments weekly sync", "Fraud rules review", "Month-end close check-in"),
        (
            "Payments glossary",
            "Refund policy",
            "Chargeback handling",
            "Settlement file format",
            "Ledger service overview",
            "Fraud rule catalogue",
            "Month-end close checklist",
            "Dunning process",
            "VAT rounding rules",
            "Payment provider contacts",
            "Webhook signature verification",
            "Bank statement import guide",
            "Currency conversion rates",
            "Merchant statement layout",
            "Tax report calendar",
        ),
    ),
    Domain(
        "mob",
        "Mobile App",
        "The driver and customer apps for Android and iOS.",
        (
            "push notification",
            "deep link",
            "app store review",
            "crash report",
            "offline mode",
            "login screen",
            "dark theme",
            "release build",
            "feature flag",
            "in-app purchase",
            "biometric unlock",
            "home widget",
            "tracking map",
            "driver checklist",
            "photo upload",
            "signature pad",
            "app settings",
            "location permission",
            "tablet layout",
            "accessibility labels",
        ),
        ("Android app", "iOS app", "mobile backend", "app store console", "crash reporter"),
        ("driver app", "customer app", "tablet kiosk"),
        ("mobile squad", "app QA", "design team"),
        ("Mobile release review", "App sprint planning", "App sprint review"),
        (
            "Mobile release checklist",
            "App store submission guide",
            "Feature flag conventions",
            "Crash triage",
            "Deep link catalogue",
            "Push notification copy",
            "Offline mode design",
            "Mobile accessibility notes",
            "Driver app handbook",
            "Photo upload limits",
            "Tablet kiosk setup",
            "Beta tester programme",
        ),
    ),
    Domain(
        "hr",
        "People & HR",
        "Hiring, payroll, leave and the employee handbook.",
        (
            "payroll run",
            "holiday request",
            "sick leave form",
            "expense claim",
            "travel policy",
            "employee handbook",
            "date of birth field",
            "birth certificate upload",
            "parental leave",
            "performance review",
            "job posting",
            "interview loop",
            "offer letter",
            "contract renewal",
            "works council",
            "headcount plan",
            "training budget",
            "hiring plan",
            "payslip layout",
            "overtime report",
            "exit interview",
            "benefits portal",
        ),
        ("HR system", "payroll provider", "applicant tracker", "time tracking", "learning platform"),
        ("Leipzig office", "Lyon office", "Zaragoza office", "Gdańsk office", "head office"),
        ("people team", "recruiting", "payroll desk"),
        ("People team sync", "Hiring committee", "Works council jour fixe"),
        (
            "Employee handbook",
            "Holiday request process",
            "Sick leave policy",
            "Expense claim guide",
            "Travel policy",
            "Interview loop guide",
            "Payroll calendar",
            "Performance review cycle",
            "Training budget rules",
            "Works council contacts",
            "Benefits overview",
            "Exit interview template",
        ),
    ),
    Domain(
        "infra",
        "Infrastructure",
        "Clusters, databases, networks, on-call and costs.",
        (
            "database failover",
            "connection pool",
            "TLS certificate",
            "Kubernetes node",
            "backup job",
            "disk alert",
            "DNS record",
            "load balancer",
            "VPN gateway",
            "log retention",
            "Terraform module",
            "cloud cost report",
            "on-call rota",
            "monitoring dashboard",
            "Redis cluster",
            "Postgres replica",
            "object storage bucket",
            "CI runner",
            "Docker image",
            "secrets vault",
            "service mesh",
            "status page",
        ),
        ("Kubernetes", "Postgres", "Grafana", "Terraform", "GitLab CI"),
        ("Frankfurt region", "Amsterdam region", "staging", "production"),
        ("platform team", "SRE", "security team"),
        ("Infra on-call handover", "Architecture review board", "Incident review", "Change advisory board"),
        (
            "Runbook: database failover",
            "Runbook: disk alerts",
            "Runbook: TLS certificates",
            "Kubernetes upgrade notes",
            "Backup and restore",
            "DNS conventions",
            "On-call handbook",
            "Monitoring dashboards",
            "Terraform module index",
            "Cloud cost report guide",
            "Secrets vault usage",
            "Docker image policy",
            "Incident review template",
            "Status page wording",
            "Service mesh overview",
        ),
    ),
    Domain(
        "portal",
        "Customer Portal",
        "The self-service portal for shippers and merchants.",
        (
            "portal feedback form",
            "customer login",
            "self-service returns",
            "order tracking page",
            "support ticket",
            "FAQ section",
            "portal navigation",
            "contact form",
            "account settings",
            "invoice download",
            "newsletter signup",
            "portal search",
            "shipment history",
            "user invitation",
            "API key page",
            "portal feedback survey",
            "address book",
            "saved reports",
        ),
        ("portal frontend", "portal API", "identity provider", "CMS", "search index"),
        ("merchant accounts", "shipper accounts", "partner portal"),
        ("portal squad", "customer success", "UX research"),
        ("Portal UX review", "Customer feedback round", "Portal sprint demo"),
        (
            "Portal style guide",
            "FAQ editing guide",
            "Customer login troubleshooting",
            "Portal feedback triage",
            "Support ticket macros",
            "API key rotation for customers",
            "Portal search tuning",
            "Self-service returns flow",
            "Account settings reference",
            "Portal release notes process",
            "Address book import",
            "Saved reports catalogue",
        ),
    ),
)

TYPES = ("Task", "Bug", "Feature", "Epic", "Milestone", "User story")
TYPE_WEIGHTS = (40, 30, 14, 3, 3, 10)
STATUSES: tuple[tuple[str, bool], ...] = (
    ("New", False),
    ("In progress", False),
    ("In review", False),
    ("On hold", False),
    ("Resolved", True),
    ("Closed", True),
    ("Rejected", True),
)
PRIORITIES = ("Low", "Normal", "High", "Immediate")

# Shared stock ----------------------------------------------------------------------------------

VERBS = (
    "Fix",
    "Investigate",
    "Update",
    "Review",
    "Automate",
    "Document",
    "Clean up",
    "Speed up",
    "Add",
    "Remove",
    "Refactor",
    "Test",
    "Monitor",
    "Move",
    "Split",
    "Validate",
    "Localise",
    "Archive",
)
PROBLEMS = (
    "times out",
    "hits an export timeout",
    "fails intermittently",
    "shows the wrong totals",
    "returns a 500 error",
    "is missing in the export",
    "creates duplicate entries",
    "stalls after the nightly job",
    "drops the last line",
    "reports stale data",
    "ignores the retry setting",
    "rounds the amounts incorrectly",
    "breaks after the update",
    "loses the customer reference",
    "sends the wrong language",
    "needs a second review",
    "is not synced",
    "shows an empty page",
    "uses the old template",
    "blocks the release",
)
OUTCOMES = (
    "the numbers match the report",
    "the export finishes within the timeout",
    "no duplicate entries are created",
    "the customer sees the right status",
    "the job finishes before 6:00",
    "every entry has a reference",
    "the team can review it in one place",
    "the data is synced every hour",
)
WHENS = (
    "since the last release",
    "during the nightly job",
    "for large customers",
    "on the first day of the month",
    "after the update",
    "in the EU region",
    "when the queue is long",
    "only in production",
    "for some orders",
    "twice a week",
)
PERIODS = ("sprint", "month", "quarter", "week", "release")
COMMENTS = (
    "Reproduced on {system}; {problem} {when}.",
    "{person} will pick this up next {period}.",
    "Moved to review after the {team} sync.",
    "Checked with {team}: the {noun} {problem} {when}.",
    "Fixed in the {system} deploy, please verify the {noun}.",
    "Still happening for {place}.",
    "Attached the logs from the {noun}.",
    "Can we close this? The {noun} looks fine since the last release.",
    "Blocked until the {noun2} is sorted out.",
    "Talked to {person}; the {noun} update goes out with the next release.",
    "Same root cause as the {noun2} issue last {period}.",
    "Priority raised: {place} depends on the {noun}.",
    "Added a test for the {noun} export.",
    "Customer confirmed the {noun} works again.",
    "Workaround: rerun the job manually and check the {noun2} report.",
    "Please review the change to the {noun}; {person} asked for a second pair of eyes.",
    "Not reproducible in staging, {problem} only in production.",
    "Split off the {noun2} part into its own work package.",
)
DESCRIPTIONS = (
    "{Person} reported that the {noun} {problem} {when}.",
    "Steps: open the {noun} in the {system}, run the export, and check the {noun2}.",
    "Expected: {outcome}. Actual: the {noun} {problem}.",
    "This blocks the {noun2} for {place}.",
    "Related to the {noun2} work from last {period}.",
    "Acceptance criteria: {outcome}; the {noun} is documented in the wiki.",
    "The {team} needs the {noun} before the end of the {period}.",
    "Finance asked whether the {cross} is affected as well.",
    "The {system} logs show the {noun} {problem}.",
    "Scope: the {noun} and the {noun2}, nothing else this {period}.",
    "Customers in {place} notice it first; support has a macro for it.",
    "Check the {cross} too, it shares the same data.",
)
AGENDA_TITLES = (
    "{Noun} status",
    "Open issues: {noun}",
    "{Noun} numbers",
    "Risks",
    "AOB",
    "{Noun} review",
    "Follow-ups from last week",
    "{Noun} for {place}",
    "Staffing",
    "Release update",
)
AGENDA_NOTES = (
    "{Person} walked through the {noun} figures.",
    "The {noun} {problem} {when}; {team} is on it.",
    "Update from {place}: the {noun2} is on track.",
    "Numbers for the {noun} are in the monthly report.",
    "Short round, nothing blocking.",
    "Open question whether the {cross} needs a change too.",
    "",
)
MEETING_OUTCOMES = (
    "Agreed to review the {noun} again next {period}.",
    "No decision; revisit next week.",
    "{Person} owns the follow-up on the {noun}.",
    "The {noun2} goes live after the next release.",
    "Agreed: {outcome}.",
    "Escalate the {noun} to {team} if it {problem} again.",
    "Keep the current {noun} process for now.",
)
LOCATIONS = (
    "Room Fjord",
    "Room Atlas",
    "Room Kiruna",
    "Leipzig canteen",
    "Hall B office",
    "Zaragoza meeting room",
    "Lyon office, 2nd floor",
    "Video call",
    "Online",
)
GENERAL_SERIES = ("All-hands", "Leadership sync", "Quarterly planning", "Open agenda", "Agenda review")
WIKI_SENTENCES = (
    "This page describes how the {team} handles the {noun}.",
    "Owner: {person}. Ask in the {team} channel if something is unclear.",
    "Before you change the {noun}, check the {noun2} in the {system}.",
    "The {noun} is reviewed every {period}; the last review is linked below.",
    "If the {noun} {problem}, follow the steps below and note what you saw.",
    "1. Open the {system}.\n2. Find the {noun}.\n3. Export the report and attach it to the work package.",
    "Known issue: the {noun2} {problem} {when}.",
    "For {place}, the {noun} works slightly differently; see the local notes.",
    "Related pages: the {cross} and the release notes.",
    "Keep the data for at least one {period} before you archive it.",
)


@dataclass(slots=True)
class Workspace:
    """A generated dataset document and what the planting helpers need to edit it."""

    document: Document
    rng: random.Random
    next_activity_id: int = 900_000
    next_agenda_item_id: int = 950_000
    user_ids: dict[str, int] = field(default_factory=dict)
    project_ids: dict[str, int] = field(default_factory=dict)
    type_ids: dict[str, int] = field(default_factory=dict)
    status_ids: dict[str, int] = field(default_factory=dict)

    # Lookups -----------------------------------------------------------------------------------

    def work_package(self, wp_id: int) -> dict[str, Any]:
        row: dict[str, Any] = self.document["work_packages"][wp_id - 1]
        assert row["id"] == wp_id
        return row

    def meeting(self, meeting_id: int) -> dict[str, Any]:
        row: dict[str, Any] = self.document["meetings"][meeting_id - 1]
        assert row["id"] == meeting_id
        return row

    def wiki_page(self, page_id: int) -> dict[str, Any]:
        row: dict[str, Any] = self.document["wiki_pages"][page_id - 1]
        assert row["id"] == page_id
        return row

    def add_user(self, name: str, login: str) -> int:
        user_id = len(self.document["users"]) + 1
        self.document["users"].append(
            {"id": user_id, "name": name, "login": login, "email": f"{login}@kestrel.example", "status": "active"}
        )
        self.user_ids[name] = user_id
        return user_id

    # Planting ----------------------------------------------------------------------------------

    def plant_work_package(
        self,
        wp_id: int,
        subject: str,
        description: str = "",
        comments: Sequence[str] = (),
        *,
        project: str | None = None,
        updated: datetime | None = None,
        status: str | None = None,
        type_name: str | None = None,
    ) -> None:
        """Rewrite work package ``wp_id``: its texts, and (when given) its project, status, type and
        last update; its comments are spread between its creation and its last update."""
        row = self.work_package(wp_id)
        created = _parse(row["createdAt"])
        last = updated or _parse(row["updatedAt"])
        if last < created:
            created = last - timedelta(days=3)
            row["createdAt"] = iso(created)
        row["subject"] = subject
        row["description"] = description
        if project is not None and row["project"] != self.project_ids[project]:
            row["project"] = self.project_ids[project]
            row["displayId"] = self._next_display_id(project)
        if status is not None:
            row["status"] = self.status_ids[status]
        if type_name is not None:
            row["type"] = self.type_ids[type_name]
        row["updatedAt"] = iso(last)
        author = row["author"]
        activities: list[dict[str, Any]] = [self._activity(1, author, created, "", ["Status set to New"])]
        for index, comment in enumerate(comments, start=1):
            moment = created + (last - created) * index / (len(comments) + 1)
            user = self.rng.choice(self.document["users"][: len(USERS)])["id"]
            activities.append(self._activity(index + 1, user, moment, comment, []))
        activities.append(self._activity(len(activities) + 1, author, last, "", ["Status changed"]))
        row["activities"] = activities

    def plant_meeting(
        self,
        meeting_id: int,
        title: str,
        items: Sequence[tuple[str, str, Sequence[str]]],
        *,
        location: str | None = None,
        participants: Sequence[int] | None = None,
        project: str | None = None,
    ) -> None:
        """Rewrite meeting ``meeting_id``: title and agenda (``(title, notes, outcomes)`` per item),
        and where given its location, participants and project; its time stays."""
        row = self.meeting(meeting_id)
        row["title"] = title
        if location is not None:
            row["location"] = location
        if participants is not None:
            row["participants"] = list(participants)
            row["author"] = participants[0]
        if project is not None:
            row["project"] = self.project_ids[project]
        row["agendaItems"] = [
            self._agenda_item(position, item_title, notes, list(outcomes))
            for position, (item_title, notes, outcomes) in enumerate(items, start=1)
        ]

    def plant_wiki_page(self, page_id: int, title: str, text: str, *, project: str | None = None) -> None:
        row = self.wiki_page(page_id)
        row["title"] = title
        row["text"] = text
        if project is not None:
            row["project"] = self.project_ids[project]

    def _next_display_id(self, identifier: str) -> str:
        prefix = f"{identifier.upper()}-"
        used = [
            int(str(row["displayId"]).removeprefix(prefix))
            for row in self.document["work_packages"]
            if str(row.get("displayId", "")).startswith(prefix)
        ]
        return f"{prefix}{max(used, default=0) + 1}"

    def _activity(self, version: int, user: int, moment: datetime, comment: str, details: list[str]) -> dict[str, Any]:
        self.next_activity_id += 1
        return {
            "id": self.next_activity_id,
            "version": version,
            "user": user,
            "createdAt": iso(moment),
            "comment": comment,
            "details": details,
        }

    def _agenda_item(self, position: int, title: str, notes: str, outcomes: list[str]) -> dict[str, Any]:
        self.next_agenda_item_id += 1
        return {
            "id": self.next_agenda_item_id,
            "title": title,
            "notes": notes,
            "position": position,
            "durationInMinutes": 10,
            "workPackage": None,
            "outcomes": outcomes,
        }


def _parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


class _Filler:
    """Sentences from the shared stock, slots filled from one domain (and a neighbour for ``cross``)."""

    def __init__(self, rng: random.Random, first_names: Sequence[str]) -> None:
        self.rng = rng
        self.first_names = first_names

    def slots(self, domain: Domain) -> dict[str, str]:
        rng = self.rng
        other = rng.choice([d for d in DOMAINS if d is not domain])
        noun, noun2 = rng.sample(domain.nouns, 2)
        person = rng.choice(self.first_names)
        return {
            "noun": noun,
            "Noun": noun[0].upper() + noun[1:],
            "noun2": noun2,
            "cross": rng.choice(other.nouns),
            "system": rng.choice(domain.systems),
            "place": rng.choice(domain.places),
            "team": rng.choice(domain.teams),
            "person": person,
            "Person": person,
            "problem": rng.choice(PROBLEMS),
            "when": rng.choice(WHENS),
            "period": rng.choice(PERIODS),
            "outcome": rng.choice(OUTCOMES),
        }

    def sentence(self, templates: Sequence[str], domain: Domain) -> str:
        return self.rng.choice(templates).format(**self.slots(domain))

    def sentences(self, templates: Sequence[str], domain: Domain, low: int, high: int) -> str:
        count = self.rng.randint(low, high)
        chosen = self.rng.sample(list(templates), min(count, len(templates)))
        return " ".join(t.format(**self.slots(domain)) for t in chosen)

    def subject(self, domain: Domain) -> str:
        rng = self.rng
        s = self.slots(domain)
        form = rng.randrange(6)
        if form == 0:
            return f"{rng.choice(VERBS)} the {s['noun']} in the {s['system']}"
        if form == 1:
            return f"{s['Noun']} {s['problem']} {s['when']}"
        if form == 2:
            return f"{rng.choice(VERBS)} {s['noun']} for {s['place']}"
        if form == 3:
            return f"{s['Noun']}: {s['problem']}"
        if form == 4:
            return f"{rng.choice(VERBS)} {s['noun']} and {s['noun2']}"
        return f"{s['Noun']} export for {s['team']}"


def generate(
    seed: int = SEED,
    *,
    work_packages: int = WORK_PACKAGES,
    meetings: int = MEETINGS,
    wiki_pages: int = WIKI_PAGES,
) -> Workspace:
    """The whole workspace, the same for the same arguments."""
    rng = random.Random(seed)
    document: Document = {
        "instance": {"version": "18.0", "name": "Kestrel Freight & Pay"},
        "users": [],
        "projects": [],
        "types": [],
        "statuses": [],
        "priorities": [],
        "work_packages": [],
        "meetings": [],
        "wiki_pages": [],
        "wiki_page_links": [],
    }
    space = Workspace(document, random.Random(seed + 1))
    for name, login in USERS:
        space.add_user(name, login)
    user_ids = [u["id"] for u in document["users"]]
    first_names = [name.split()[0] for name, _ in USERS]
    for index, domain in enumerate(DOMAINS, start=1):
        document["projects"].append(
            {
                "id": index,
                "identifier": domain.identifier,
                "name": domain.name,
                "description": domain.description,
                "active": True,
                "public": False,
                "parent": None,
                "createdAt": iso(START - timedelta(days=30)),
                "updatedAt": iso(END),
            }
        )
        space.project_ids[domain.identifier] = index
    for index, type_name in enumerate(TYPES, start=1):
        document["types"].append(
            {
                "id": index,
                "name": type_name,
                "isMilestone": type_name == "Milestone",
                "isDefault": index == 1,
                "color": f"#{(index * 0x2A3B4C) % 0xFFFFFF:06X}",
            }
        )
        space.type_ids[type_name] = index
    for index, (status_name, closed) in enumerate(STATUSES, start=1):
        document["statuses"].append({"id": index, "name": status_name, "isClosed": closed, "isDefault": index == 1})
        space.status_ids[status_name] = index
    for index, priority in enumerate(PRIORITIES, start=1):
        document["priorities"].append(
            {"id": index, "name": priority, "isDefault": priority == "Normal", "isActive": True}
        )

    filler = _Filler(rng, first_names)
    _work_packages(document, space, rng, filler, user_ids, work_packages)
    _meetings(document, rng, filler, user_ids, meetings)
    _wiki(document, rng, filler, wiki_pages, work_packages)
    return space


def _work_packages(
    document: Document, space: Workspace, rng: random.Random, filler: _Filler, user_ids: list[int], count: int
) -> None:
    span = END - START
    counters = {d.identifier: 0 for d in DOMAINS}
    activity_id = 100_000
    status_ids = list(range(1, len(STATUSES) + 1))
    for wp_id in range(1, count + 1):
        domain = rng.choice(DOMAINS)
        counters[domain.identifier] += 1
        created = START + span * (wp_id - 1) / count + timedelta(minutes=rng.randint(0, 600))
        created = min(created, END - timedelta(days=1))
        roll = rng.random()
        if roll < 0.15:
            updated = created
        elif roll < 0.9:
            updated = created + timedelta(days=rng.randint(1, 45), minutes=rng.randint(0, 600))
        else:
            updated = created + timedelta(days=rng.randint(60, 400))
        if updated > END:
            updated = max(created, END - timedelta(minutes=rng.randint(0, 20_000)))
        author = rng.choice(user_ids)
        assignee = rng.choice(user_ids) if rng.random() < 0.8 else None
        # Older work packages are mostly done.
        age = (END - created) / span
        status = rng.choice(status_ids[4:]) if rng.random() < age * 0.9 else rng.choice(status_ids[:4])
        activities: list[dict[str, Any]] = []
        activity_id += 1
        activities.append(
            {
                "id": activity_id,
                "version": 1,
                "user": author,
                "createdAt": iso(created),
                "comment": "",
                "details": ["Status set to New"],
            }
        )
        comments = rng.choices((0, 1, 2, 3, 4), weights=(20, 30, 25, 15, 10))[0]
        steps = comments + (1 if updated > created else 0)
        for step in range(1, steps + 1):
            activity_id += 1
            moment = created + (updated - created) * step / max(steps, 1)
            is_comment = step <= comments
            activities.append(
                {
                    "id": activity_id,
                    "version": step + 1,
                    "user": rng.choice(user_ids),
                    "createdAt": iso(moment),
                    "comment": filler.sentence(COMMENTS, domain) if is_comment else "",
                    "details": [] if is_comment else [f"Status changed to {STATUSES[status - 1][0]}"],
                }
            )
        start_date = created.date() + timedelta(days=rng.randint(0, 10))
        due_date = start_date + timedelta(days=rng.randint(3, 60))
        document["work_packages"].append(
            {
                "id": wp_id,
                "displayId": f"{domain.identifier.upper()}-{counters[domain.identifier]}",
                "project": space.project_ids[domain.identifier],
                "subject": filler.subject(domain),
                "description": filler.sentences(DESCRIPTIONS, domain, 1, 4),
                "type": rng.choices(range(1, len(TYPES) + 1), weights=TYPE_WEIGHTS)[0],
                "status": status,
                "priority": rng.choices((1, 2, 3, 4), weights=(20, 55, 20, 5))[0],
                "author": author,
                "assignee": assignee,
                "parent": None,
                "startDate": start_date.isoformat(),
                "dueDate": due_date.isoformat(),
                "percentageDone": 100 if status >= 5 else rng.choice((0, 10, 30, 50, 80)),
                "createdAt": iso(created),
                "updatedAt": iso(updated),
                "activities": activities,
            }
        )


def _meetings(document: Document, rng: random.Random, filler: _Filler, user_ids: list[int], count: int) -> None:
    span = END - START
    agenda_id = 500_000
    sprints = 0
    for meeting_id in range(1, count + 1):
        domain = rng.choice(DOMAINS)
        day = START + timedelta(days=span.days * (meeting_id - 1) // count)
        start = day.replace(hour=rng.choice((7, 8, 9, 12, 13)), minute=rng.choice((0, 30)))
        end = start + timedelta(minutes=rng.choice((30, 45, 60, 90)))
        if rng.random() < 0.12:
            title = rng.choice(GENERAL_SERIES)
        else:
            title = rng.choice(domain.series)
            if title.startswith("App sprint"):
                sprints += 1
                title = title.replace("sprint", f"sprint {sprints}")
        people = rng.sample(user_ids, rng.randint(3, 7))
        items = []
        for position in range(1, rng.randint(2, 5) + 1):
            agenda_id += 1
            outcomes = [filler.sentence(MEETING_OUTCOMES, domain)] if rng.random() < 0.6 else []
            items.append(
                {
                    "id": agenda_id,
                    "title": filler.sentence(AGENDA_TITLES, domain),
                    "notes": filler.sentence(AGENDA_NOTES, domain),
                    "position": position,
                    "durationInMinutes": rng.choice((5, 10, 15, 20, 30)),
                    "workPackage": None,
                    "outcomes": outcomes,
                }
            )
        document["meetings"].append(
            {
                "id": meeting_id,
                "project": DOMAINS.index(domain) + 1,
                "title": title,
                "location": rng.choice(LOCATIONS),
                "startTime": iso(start),
                "endTime": iso(end),
                "state": "closed" if end < END else "open",
                "author": people[0],
                "participants": people,
                "createdAt": iso(start - timedelta(days=rng.randint(1, 10))),
                "updatedAt": iso(end + timedelta(minutes=rng.randint(5, 120))),
                "agendaItems": items,
            }
        )


def _wiki(document: Document, rng: random.Random, filler: _Filler, count: int, work_packages: int) -> None:
    titles = [(domain, title) for domain in DOMAINS for title in domain.wiki_titles]
    rng.shuffle(titles)
    span = END - START
    for page_id in range(1, count + 1):
        if page_id <= len(titles):
            domain, title = titles[page_id - 1]
        else:
            domain = rng.choice(DOMAINS)
            title = f"{domain.name} meeting notes {page_id}"
        paragraphs = [filler.sentences(WIKI_SENTENCES, domain, 2, 4) for _ in range(rng.randint(2, 4))]
        document["wiki_pages"].append(
            {
                "id": page_id,
                "project": DOMAINS.index(domain) + 1,
                "title": title,
                "text": f"# {title}\n\n" + "\n\n".join(paragraphs),
                "updatedAt": iso(START + span * rng.random()),
            }
        )
    for link_id in range(1, WIKI_LINKS + 1):
        document["wiki_page_links"].append(
            {
                "id": link_id,
                "workPackage": rng.randint(1, work_packages),
                "wikiPage": rng.randint(1, count),
                "provider": "internal",
                "linkType": "relation",
            }
        )
