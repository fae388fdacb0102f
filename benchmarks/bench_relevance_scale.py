"""Relevance at scale: 424 assistant queries against a generated company workspace, through the MCP tools.

The workspace is ``benchmarks.scale_corpus`` (about 1,500 work packages over two years, 330
meetings, 90 wiki pages, filler text from several domains so common words are common). About
350 records are planted inside it (targets and their near-miss decoys), at ids (and so ages)
spread over its history, and one case per target asks for it the way an assistant would; 95 cases ask
targets again another way. Categories:

- whole questions ("what did we decide about the hiring freeze"), stopword-heavy questions;
- word forms (migrate / migration, hire / hiring, reimbursed / reimbursement...);
- a phrase against the same words reordered in an older record (which a tie would put first);
- typos; a word present verbatim against its prefix and edit neighbours ("berth" / "birth");
- versions and digits ("v2.14.1" / "v2.1.14", "ADR-0012" / "ADR-0011");
- technical tokens (``max_connections`` / ``maxConnections`` / "max connections", e-mail /
  email, "#1234 export timeout" and a display id ranking that work package first);
- German folding (Straße / strasse, Müller / Mueller), a query word the corpus never saw;
- old deep content: an old comment on a long-untouched work package, an outcome of one of the
  oldest meetings, a meeting found by a participant's name; and gibberish (nothing may come back);
- the same targets asked another way (requests, short forms, other orders, forms and spellings),
  written after the first 119 cases (46, then 49 more kept as first written), so they measure
  how the rules carry over to new phrasings;
- a third batch: 41 cases over 28 new records (with 13 older near misses), written by someone who
  had not read the ranking code and kept as first written (ADR 0051 records what they found);
- a fourth batch, written the same way: 40 cases over 28 new records (with 10 older near misses),
  weighted to a person or project with a topic, error codes, paths, hostnames, cron and amounts,
  short keywords, British / American spellings, abbreviations, dates, double typos and chit-chat;
- a fifth batch, written the same way: 43 cases over 32 new records (with 9 older or similar near
  misses) and one participant, weighted to long chatty questions, time phrases ("last sprint", "in
  March"), a person with a topic, compounds written apart or joined (check list, on call, cross dock,
  dead line, postmortem), -ise / -ize, abbreviations both ways (PR, k8s, prod, DB, MFA, xmas), word
  forms, short German questions over German records, typos in the rare word and gibberish;
- a sixth batch, written the same way: 42 cases over 31 new records (with 9 older or similar near
  misses), weighted to wiki questions ("how do I…", "what's our policy on…"), a person with a topic,
  acronyms both ways (SLA, SSO, RMA, EOL, PoC, KPI, ETA, POD), long chatty messages, typos in names of
  places, people and products, word forms, joined or split compounds (checkin, ontime, Erste-Hilfe,
  Dienstwagenregelung), amounts, dates and reason codes, short German, French and Spanish questions
  over records in those languages, and gibberish or off-topic queries;
- a seventh batch, written the same way: 44 cases over 32 new records (with 9 older or similar near
  misses) and one participant, weighted to symptoms pasted as a user would (error messages and log
  lines with quotes, colons and stack-trace fragments, HTTP codes, file paths and URL fragments,
  e-mail addresses, config keys), status and people in passing ("the open ticket Amelie had",
  "did anyone ever fix"), meetings asked by what was decided, by a participant with a topic or by a
  date phrase their text lacks ("mid-December 2024", "last summer"), quotes, ALL CAPS, emoji and
  "thanks!!", word forms (cancel / cancellation, reschedule / rescheduled, refund / refunded, ship /
  shipments), typos in common words and a rare name, split or joined words (login, setup, hand over),
  questions in Polish, Italian and Dutch over records in those languages, very short queries and
  gibberish or off-topic queries.

Every case is one ``tools/call`` of ``openproject_search_work_packages``, ``..._meetings`` or
``..._wiki_pages`` through the MCP server, with cold caches (a fresh ``Application`` per case),
in three modes: the dataset file on the in-memory backend, and the same dataset served over HTTP
by the fake OpenProject in the 17.3 and 18.0 profiles. Per mode it prints recall@1, MRR, decoy
violations (a decoy that must not come back did), recall@1 per category, and every failure with
the first five ids returned. A case whose evidence the version's API does not expose (agenda
items and participants before 17.4, wiki page text in every released version, display ids
before 17.4) is still run and counted, and its failure is listed apart, as out of the API's reach.

Then each meeting case a cold 18.0 call missed is asked again, up to 14 times with one Application (a
repeat of a meeting search whose answer is not whole reads the next 25 agendas, ADR 0066), and the
line says how many are first by the 2nd, 4th and 14th call.

The whole run takes about five minutes on two cores (each mode 60-90 s, the repeats about a minute;
in fixture mode about half of it is each case's fresh Application loading and indexing the dataset
file).

Before anything runs, every case's ``marks`` (lower-cased fragments) are checked to occur together in
its target and in no other record of that kind, so no other record holds what picks the target out.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcp import Client

from benchmarks.scale_corpus import Workspace, generate
from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.fake_openproject import FakeOpenProject

WP, MEET, WIKI = "work packages", "meetings", "wiki"
TOOLS = {
    WP: "openproject_search_work_packages",
    MEET: "openproject_search_meetings",
    WIKI: "openproject_search_wiki_pages",
}
TOKEN = "bench-scale-token"
PROFILES = ("17.3", "18.0")

# What a case needs from the API beyond lists of records.
AGENDA = "agenda items"
PARTICIPANTS = "meeting participants"
WIKI_TEXT = "wiki page text"
DISPLAY_IDS = "display ids"
LACKS: dict[str, frozenset[str]] = {
    "fixture": frozenset(),
    "17.3": frozenset({AGENDA, PARTICIPANTS, WIKI_TEXT, DISPLAY_IDS}),
    "18.0": frozenset({WIKI_TEXT}),
}

QUESTION = "question"
FORMS = "word forms"
PHRASE = "phrase vs reordered"
TYPO = "typos"
EXACT = "exact vs fuzzy neighbour"
VERSION = "versions and digits"
TECH = "technical tokens"
GERMAN = "German folding"
UNKNOWN = "unknown word"
OLD = "old deep content"
STOP = "stopword-heavy"
GIBBERISH = "gibberish"
REPHRASED = "asked another way"
CATEGORIES = (QUESTION, FORMS, PHRASE, TYPO, EXACT, VERSION, TECH, GERMAN, UNKNOWN, OLD, STOP, GIBBERISH, REPHRASED)


@dataclass(frozen=True, slots=True)
class Case:
    category: str
    tool: str
    query: str  # ``{display_id}`` is replaced by the expected work package's display id
    expected: int | None  # None: nothing may come back
    decoys: tuple[int, ...] = ()  # must not come back at all
    marks: tuple[str, ...] = ()  # lower-cased fragments only the expected record holds all of
    needs: frozenset[str] = frozenset()


def ago(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 15, 30, tzinfo=UTC)


# Targets --------------------------------------------------------------------------------------
# Work packages: id -> (subject, description, comments, options). Ids grow with time: 1 is June 2024,
# 1500 the end of May 2026; an explicit ``updated`` puts the last change long ago.

WorkPackagePlant = tuple[str, str, tuple[str, ...], dict[str, Any]]
WORK_PACKAGE_TARGETS: dict[int, WorkPackagePlant] = {
    # questions
    1377: (
        "Refunds fail for Quilpay orders after the PSP upgrade",
        "Since the upgrade, refund requests for Quilpay orders are answered with a 422.",
        ("Reproduced with two test orders.",),
        {"project": "pay", "type_name": "Bug"},
    ),
    655: (
        "VPN gateway certificate rotation",
        "Document how we rotate the VPN gateway certificates without dropping the tunnel to the depot.",
        (),
        {"project": "infra"},
    ),
    1102: (
        "Invoice download on the portal is slow for large PDFs",
        "Merchants wait 40 seconds for invoices with more than 200 pages.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    990: (
        "SEPA mandate import for the Polish entity",
        "Where we are: 60% of the mandates are imported; the rest waits for the bank's file.",
        (),
        {"project": "pay"},
    ),
    1444: (
        "Customs hold on shipments to Norway",
        "Shipments to Norway wait at the border because the EDI gateway sends no HS codes.",
        (),
        {"project": "logi"},
    ),
    230: (
        "Push notification opt-in rate dropped on iOS",
        "The opt-in prompt moved behind the onboarding carousel in 3.4.",
        (),
        {"project": "mob"},
    ),
    # word forms
    420: (
        "Ledger database migration to the new Postgres cluster",
        "Cut-over plan for the ledger service; read replicas first, the primary on a Sunday morning.",
        (),
        {"project": "pay"},
    ),
    877: (
        "Travel expense reimbursement for external contractors",
        "Contractors claim through the supplier invoice today; finance wants one form for everyone.",
        (),
        {"project": "hr"},
    ),
    1211: (
        "Replacement of the handheld scanners at the dock doors",
        "The Vexa H52 units reach end of life in September.",
        (),
        {"project": "logi"},
    ),
    530: (
        "Deprecation of the v1 webhooks",
        "Merchants still on v1 get a notice 90 days ahead.",
        (),
        {"project": "pay"},
    ),
    1450: (
        "Wildcard certificate renewal for the portal domains",
        "It expires on 30 June; the DNS challenge needs the token from the secrets vault.",
        (),
        {"project": "infra"},
    ),
    1030: (
        "Purge closed support tickets after two years",
        "Legal asked for a purge job; tickets with an open chargeback are kept.",
        (),
        {"project": "portal"},
    ),
    # Older records with the other words but not the word form: only the form puts the target first.
    400: ("Ledger database sizing for the new Postgres cluster", "", (), {"project": "pay"}),
    860: ("Travel expense policy for external contractors", "", (), {"project": "hr"}),
    1195: ("Repair of the handheld scanners at the dock doors", "", (), {"project": "logi"}),
    515: ("Documentation of the v1 webhooks", "", (), {"project": "pay"}),
    1430: ("Wildcard certificate expiry alert for the portal domains", "", (), {"project": "infra"}),
    1020: ("Export closed support tickets after two years", "", (), {"project": "portal"}),
    # phrase vs reordered (the reordered record is older and has the lower id)
    1320: ("Payment reminder email goes out twice", "", (), {"project": "pay", "type_name": "Bug"}),
    1280: ("Email reminder about payment goes out twice", "", (), {"project": "pay", "type_name": "Bug"}),
    760: ("Stock transfer order stuck in the WMS", "", (), {"project": "logi"}),
    702: ("Order for stock transfer stuck in the WMS", "", (), {"project": "logi"}),
    1005: ("Credit note export to the accounting system", "", (), {"project": "pay"}),
    940: ("Export the note for each credit to the accounting system", "", (), {"project": "pay"}),
    # typos
    345: (
        "Chargeback dispute evidence upload fails",
        "The PSP rejects PDFs above 4 MB.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1188: ("Warehouse heatmap for picking density", "A heatmap per aisle, refreshed hourly.", (), {"project": "logi"}),
    610: (
        "Intermittent Bluetooth pairing loss with the handheld printers",
        "Printers drop the pairing after about two hours.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1410: ("Geofence radius too small for the Rotterdam hub", "Drivers arrive before the app notices.", (), {}),
    1499: ("Signature pad freezes on Orlin tablets", "Only on the Orlin Tab 8.", (), {"project": "mob"}),
    # Older records without the misspelt words: only matching the typo puts the target first.
    333: ("Dispute evidence checklist for refunds", "", (), {"project": "pay"}),
    1180: ("Heatmap for picking density in the returns bay", "", (), {"project": "logi"}),
    600: ("Pairing printers with the new handhelds", "", (), {"project": "logi"}),
    1400: ("Radius of the Rotterdam hub delivery zone", "", (), {"project": "logi"}),
    1495: ("Orlin tablets: drawing pad lags", "", (), {"project": "mob"}),
    # exact word beside fuzzy neighbours
    1360: ("Berth schedule for the Rotterdam container terminal", "", (), {"project": "logi"}),
    1350: ("Birth date missing on the payroll export", "", (), {"project": "hr", "type_name": "Bug"}),
    1340: ("Birthday greetings in the HR system", "", (), {"project": "hr"}),
    1290: ("Port fee surcharge on Rotterdam imports", "", (), {"project": "logi"}),
    1270: ("Portal feedback widget does not load", "", (), {"project": "portal", "type_name": "Bug"}),
    1150: ("COD for the Polish deliveries", "Cash on delivery for the pilot with two shops.", (), {"project": "pay"}),
    1120: ("Code review checklist for the cold storage log", "", (), {"project": "logi"}),
    1420: ("Cart abandonment after the shipping step", "", (), {"project": "portal"}),
    1405: ("Carton sizes for the packing station", "", (), {"project": "logi"}),
    # versions and digits
    1395: ("Android release v2.14.1 crashes on start", "", (), {"project": "mob", "type_name": "Bug"}),
    1385: ("iOS release v2.1.14 crashes on start", "", (), {"project": "mob", "type_name": "Bug"}),
    1080: ("Upgrade Postgres replicas to 16.4", "", (), {"project": "infra"}),
    1040: ("Upgrade Postgres replicas to 14.6", "", (), {"project": "infra"}),
    1233: ("ADR-0007 rollout: idempotency keys in the billing API", "", (), {"project": "pay"}),
    1200: ("ADR-0070 rollout: request signing in the billing API", "", (), {"project": "pay"}),
    890: ("Checkout returns error 503 under load", "", (), {"project": "pay", "type_name": "Bug"}),
    850: ("Checkout returns error 502 under load", "", (), {"project": "pay", "type_name": "Bug"}),
    # technical tokens
    700: (
        "Ledger primary runs out of connections at month-end",
        "Raise max_connections on the ledger primary from 200 to 400; the pooler stays in transaction mode.",
        (),
        {"project": "infra"},
    ),
    1255: (
        "Webhook delivery gives up too early",
        "The retry policy uses maxRetries=5 with exponential backoff; merchants ask for more.",
        (),
        {"project": "pay"},
    ),
    815: ("E-mail bounce handling for dunning letters", "", (), {"project": "pay"}),
    1234: (
        "Nightly CSV export timeout for the settlement file",
        "The export of the settlement file hits the export timeout after 300 s.",
        (),
        {"project": "pay"},
    ),
    1160: (
        "Export timeout on the carrier rate card",
        "The carrier rate card export hits the export timeout for the Rotterdam hub.",
        (),
        {"project": "logi"},
    ),
    980: (
        "UTF8 filenames break the customs declaration upload",
        "Filenames with umlauts are cut at the first non-ASCII character.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1300: (
        "Partner API authentication",
        "Switch the partner API to the OAuth2 client_credentials grant.",
        (),
        {"project": "portal"},
    ),
    1044: (
        "Reporting queries block the ledger",
        "Set statement_timeout = 30s for the reporting role.",
        (),
        {"project": "infra"},
    ),
    # Older records with the other words only.
    1250: ("Webhook retries are logged twice", "", (), {"project": "pay"}),
    810: ("Bounce handling for dunning letters", "", (), {"project": "pay"}),
    975: ("Filenames of the customs declaration upload", "", (), {"project": "logi"}),
    1295: ("OAuth2 scopes for the partner API", "", (), {"project": "portal"}),
    # German folding
    1010: ("Address validation rejects Bahnhofsplatz in Leipzig", "", (), {"project": "portal", "type_name": "Bug"}),
    1328: ("Ramp times for the Gdańsk depot during peak", "", (), {"project": "logi"}),
    1015: ("Address validation rejects Hauptstraße in Leipzig", "", (), {"project": "portal", "type_name": "Bug"}),
    566: (
        "Shortened street names on pallet labels",
        "The customer typed Bahnhofstrasse 12, but the label shows Bahnhofstr. and the driver got lost.",
        (),
        {"project": "logi"},
    ),
    1333: (
        "Ramp times for the Gdańsk depot",
        "New ramp times from the first of the month.",
        ("Herr Müller from the depot confirmed the new ramp times.",),
        {"project": "logi"},
    ),
    1066: (
        "Nordlys Transport rate card for 2026",
        "",
        ("Søren Kjær from Nordlys sends the new rate card next week.",),
        {"project": "logi"},
    ),
    # unknown word
    1099: ("Escrow account for marketplace sellers", "", (), {"project": "pay"}),
    444: ("Pallet wrapping machine jams on film change", "", (), {"project": "logi", "type_name": "Bug"}),
    1366: ("Dock door sensor calibration", "Sensors report open doors that are shut.", (), {"project": "logi"}),
    # old deep content: the only match is an old comment on a work package untouched since
    40: (
        "Clean up the shipment manifest in the TMS",
        "The manifest has grown over the years.",
        (
            "Reproduced on the TMS with a manifest from the Rotterdam hub.",
            "Root cause: the carrier API drops the customs reference when the manifest has more than 999 lines.",
        ),
        {"project": "logi", "updated": ago(2024, 7, 10), "status": "Closed"},
    ),
    85: (
        "Overtime report for the Lyon office",
        "Monthly overtime report for the works council.",
        ("We agreed with the works council that overtime needs a second sign-off above 10 hours.",),
        {"project": "hr", "updated": ago(2024, 8, 2), "status": "Resolved"},
    ),
    130: (
        "Settlement file arrives late",
        "The settlement file is not there when the reconciliation starts.",
        ("Final answer from the PSP: settlement files are cut at midnight UTC, not CET.",),
        {"project": "pay", "updated": ago(2024, 8, 30), "status": "Closed"},
    ),
    200: (
        "Blank labels in Hall B",
        "Labels come out blank after the weekend.",
        ("The label printer firmware rollback fixed the blank labels.",),
        {"project": "logi", "updated": ago(2024, 10, 1), "status": "Closed", "type_name": "Bug"},
    ),
    15: (
        "Commercial invoice template",
        "Template for exports outside the EU.",
        ("Customs asked for the EORI number on every commercial invoice.",),
        {"project": "logi", "updated": ago(2024, 6, 20), "status": "Closed"},
    ),
    60: (
        "Depot invoicing currency",
        "Which currency the depot invoices in.",
        ("Finance confirmed: the Gdańsk depot invoices in PLN from July; the ledger converts at the ECB rate.",),
        {"project": "pay", "updated": ago(2024, 7, 25), "status": "Closed"},
    ),
    # stopword-heavy
    1177: ("Tote washer keeps tripping the breaker", "", (), {"project": "logi", "type_name": "Bug"}),
    925: (
        "Duplicate payslips for March",
        "Update: the payroll provider sent the March file again.",
        (),
        {"project": "hr", "type_name": "Bug"},
    ),
    320: ("Shared drive for the customs desk is full", "", (), {"project": "infra"}),
    # A third batch of targets, each beside an older near miss where one fits.
    1466: (
        "Apple Pay button missing in Safari checkout",
        "Since Safari 19.2 the Apple Pay button does not render on the checkout page; Chrome and the iOS app are fine.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1460: ("Google Pay button on the checkout page", "Show the button on Android Chrome only.", (), {"project": "pay"}),
    805: (
        "Rate limiting for the public tracking API",
        "Limit each API key with rate_limit_per_minute = 600 and answer 429 with a Retry-After header.",
        (),
        {"project": "portal"},
    ),
    790: ("Public tracking API documentation", "", (), {"project": "portal"}),
    1342: (
        "Consolidate duplicate customer accounts in the portal",
        "Merchants with two logins see two order histories; merge the accounts by VAT ID.",
        (),
        {"project": "portal"},
    ),
    1310: ("Duplicate customer accounts report", "", (), {"project": "portal"}),
    720: (
        "Payroll export to DATEV for the Leipzig office",
        "DATEV wants one Lohnabrechnung file per cost centre; Frau Schäfer from accounting checks the first run.",
        (),
        {"project": "hr"},
    ),
    705: ("Payroll export for the Lyon office", "", (), {"project": "hr"}),
    1478: (
        "Klarna reconciliation breaks on partial captures",
        "Partial captures show up as two lines in the Klarna settlement file; the matcher expects one line per order.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1470: (
        "Klarna settlement file import",
        "Daily import of the Klarna settlement file into the ledger.",
        (),
        {"project": "pay"},
    ),
    950: (
        "Upgrade Kubernetes to 1.33 on the staging cluster",
        "Drain one node pool at a time; check the removed APIs first.",
        (),
        {"project": "infra"},
    ),
    930: ("Upgrade Kubernetes to 1.32 on the staging cluster", "", (), {"project": "infra"}),
    1172: (
        "Re-index the portal search after the CMS switch",
        "The FAQ section and the saved reports are missing from the search results since the move.",
        (),
        {"project": "portal"},
    ),
    1165: ("Search index size for the portal", "", (), {"project": "portal"}),
    95: (
        "Bonded storage at the Gdańsk depot",
        "Renewal of the bonded storage authorisation.",
        (
            "The customs office raised the guarantee to 250,000; our bank guarantee for the customs bond runs out "
            "in December.",
        ),
        {"project": "logi", "updated": ago(2024, 9, 12), "status": "Closed"},
    ),
    1390: (
        "Driver app drains battery with GPS tracking on",
        "On Android 14 drivers lose about 30% battery per shift; location updates run every second.",
        (),
        {"project": "mob", "type_name": "Bug"},
    ),
    1375: ("Battery level in the driver checklist", "", (), {"project": "mob"}),
    1226: (
        "Société Générale payout files move to a new format",
        "Société Générale accepts only pain.001.001.09 from November; the payout batch job must switch.",
        (),
        {"project": "pay"},
    ),
    1215: (
        "Payout file format for Deutsche Bank",
        "Deutsche Bank stays on pain.001.001.03 for now.",
        (),
        {"project": "pay"},
    ),
    1488: (
        "Add Swish as a payment method for Sweden",
        "Swish through the PSP gateway; the merchant agreement with the bank is signed.",
        (),
        {"project": "pay", "type_name": "Feature"},
    ),
    640: (
        "Dangerous goods labels for lithium batteries",
        "UN3481 shipments need the lithium battery mark and a 24-hour emergency number on the label.",
        (),
        {"project": "logi"},
    ),
    625: (
        "Lithium battery storage in Hall B",
        "Fire-rated cabinets for the returned scanner batteries.",
        (),
        {"project": "logi"},
    ),
    1312: (
        "Idempotency-Key header ignored on POST /payouts",
        "A retry with the same Idempotency-Key creates a second payout batch.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    # A fourth batch of targets, each beside an older near miss where one fits.
    1138: (
        "Refund export leaves out partial refunds",
        "The nightly refund export lists only full refunds; partial refunds made from the merchant portal are "
        "missing, so the totals differ from the PSP report.",
        (
            "Inês Gonçalves: finance matches the partial refunds by hand every morning until the export includes "
            "them, about 70 a day.",
        ),
        {"project": "pay", "type_name": "Bug"},
    ),
    1090: ("Partial refund reasons on the merchant statement", "", (), {"project": "pay"}),
    1352: (
        "Cookie banner covers the Pay button on small screens",
        "On phones narrower than 375 px the consent banner sits on top of the Pay button in the portal checkout; "
        "merchants report lost orders.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1305: (
        "Cookie banner in the customer app web views",
        "The web views show the banner again on every start.",
        (),
        {"project": "mob"},
    ),
    1418: (
        "PSP answers HTTP 429 Too Many Requests during the payout batch",
        "The payout batch fires 40 requests per second from 02:00; the PSP allows 25 per second per merchant "
        "account and throttles the rest. Payouts retried after a 429 land a day late.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    870: (
        "Carrier API calls fail with ECONNRESET after the NAT gateway change",
        "The label service logs 'read ECONNRESET' on about one call in fifty; the new NAT gateway drops idle TCP "
        "connections after 350 s while our HTTP keep-alive is 600 s.",
        (),
        {"project": "infra", "type_name": "Bug"},
    ),
    1107: (
        "Invoice renderer pods OOMKilled on the first of the month",
        "The invoice-renderer pods hit their 2Gi memory limit on statements with thousands of lines and restart "
        "with reason OOMKilled; raise resources.limits.memory to 4Gi and render page by page.",
        (),
        {"project": "infra", "type_name": "Bug"},
    ),
    1322: (
        "pg_wal fills the disk on db-replica-02",
        "/var/lib/postgresql/16/main/pg_wal on db-replica-02 grew to 180 GB: the replication slot of the retired "
        "reporting replica was never dropped. Drop the slot and set max_slot_wal_keep_size = 50GB.",
        (),
        {"project": "infra"},
    ),
    1260: (
        "db-replica-01 disk alert after the nightly vacuum",
        "Disk at 85% on db-replica-01 during the vacuum; it recovered on its own.",
        (),
        {"project": "infra"},
    ),
    765: (
        "Sticky sessions in the checkout load balancer configuration",
        "Checkout loses the basket when a customer lands on another pod. In /etc/haproxy/haproxy.cfg the checkout "
        "backend gets `cookie SRVID insert indirect nocache` and `timeout http-keep-alive 5s`.",
        (),
        {"project": "infra"},
    ),
    582: (
        "Move the dunning run to weekday mornings",
        "Change the cron expression of the dunning run from `0 2 * * *` to `30 6 * * 1-5`, so the letters go out "
        "at 06:30 after the bank statement import and never at weekends.",
        (),
        {"project": "pay"},
    ),
    1076: (
        "Uptime commitment of 99.95% for enterprise merchants",
        "Sales promised 99.95% monthly uptime in the new enterprise contracts; the status page measures the portal "
        "and the tracking API separately.",
        (),
        {"project": "portal"},
    ),
    1050: (
        "Monthly uptime report for the status page",
        "February closed at 99.9% for the portal.",
        (),
        {"project": "portal"},
    ),
    488: (
        "Laptop budget for new hires",
        "The hardware budget per new hire goes up from €900 to €1,350; anything above needs the CFO's approval.",
        (),
        {"project": "hr"},
    ),
    460: ("Laptop refresh for the Lyon office", "Twelve laptops are older than four years.", (), {"project": "hr"}),
    1264: (
        "Brand colour tokens for the dark theme",
        "Design delivers the primary and accent colours as tokens; the Android and iOS apps read them from one "
        "JSON file.",
        (),
        {"project": "mob"},
    ),
    1240: ("Brand font tokens for the dark theme", "", (), {"project": "mob"}),
    1456: (
        "SSO authentication fails for merchant users after the identity provider update",
        "Since the identity provider moved to version 26, the SAML response carries a new audience and the portal "
        "rejects the login with 'invalid audience'.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1380: (
        "SSO login for the partner portal",
        "Partners ask for SSO with their own identity provider.",
        (),
        {"project": "portal"},
    ),
    1243: (
        "VAT rounding off by one cent since the ledger deploy",
        "After the ledger deploy on Friday 23 January, invoices with more than 40 lines round VAT per line instead "
        "of per invoice.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1208: (
        "Stretch film supplier switches to 17 micron",
        "Polivex stops the 23 µm film in April; the stretch hooder needs new pre-stretch settings for the 17 µm "
        "rolls, and Hall B wants a trial pallet first.",
        (),
        {"project": "logi"},
    ),
    270: (
        "Relocation package for the Gdańsk office",
        "Covers the move for the four engineers joining from Kraków.",
        (
            "Priya Raman: the relocation bonus is paid in two halves, one with the first payroll and one after the "
            "probation period.",
        ),
        {"project": "hr", "updated": ago(2024, 11, 5), "status": "Closed"},
    ),
    1472: (
        "Electric pallet jacks for Hall C",
        "Two electric pallet jacks for the returns area in Hall C.",
        ("Helga: the two Linde units arrive in week 24; the charging spots go next to door 7.",),
        {"project": "logi"},
    ),
    # A fifth batch of targets, each beside an older near miss where one fits.
    1415: (
        "Pull request checks time out on the ledger service",
        "Since the CI runner pool moved to the new cluster, the pull request pipeline of the ledger service stops at "
        "the 20-minute limit during the integration tests; developers rerun it two or three times.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1408: (
        "Pull request template for the mobile repositories",
        "Add screenshots, a release note line and the feature flag name to the template.",
        (),
        {"project": "mob"},
    ),
    905: (
        "Audit logging for the production Kubernetes cluster",
        "Enable API server audit logging on the production cluster and ship the logs to the object storage bucket "
        "for 400 days; the security team needs it for the ISO 27001 audit in November.",
        (),
        {"project": "infra"},
    ),
    880: (
        "Audit logging for the secrets vault",
        "Needed for the ISO 27017 cloud controls; the logs go to the SIEM.",
        (),
        {"project": "infra"},
    ),
    1060: (
        "Standardise the onboarding checklist across all offices",
        "Each office keeps its own onboarding checklist; the people team wants one template with the laptop, badge, "
        "payroll and works council steps, localised for Lyon and Zaragoza.",
        (),
        {"project": "hr"},
    ),
    1045: ("Onboarding checklist for the Lyon office", "", (), {"project": "hr"}),
    675: (
        "Escalate pages that the on-call engineer does not acknowledge",
        "If a page is not acknowledged within 15 minutes, it goes to the secondary on-call, and after 30 minutes to "
        "the incident commander.",
        (),
        {"project": "infra"},
    ),
    1125: (
        "Dunning letters for the UK entity show the late fee in euros",
        "The third dunning letter for UK customers prints '€40 late fee', but UK invoices are in pounds.",
        (
            "Sara Lindqvist: the UK late payment fee is £40 for invoices under £1,000 and £70 above; legal confirmed "
            "the wording.",
        ),
        {"project": "pay", "type_name": "Bug"},
    ),
    1483: (
        "Confirm button hidden behind the navigation bar on Android 15",
        "With edge-to-edge enforced on Android 15, the Confirm button of the delivery screen sits under the gesture "
        "bar, so drivers cannot finish a stop. Found in sprint 61 testing.",
        (),
        {"project": "mob", "type_name": "Bug"},
    ),
    1476: (
        "Confirm button label on the iOS delivery screen",
        "Design wants 'Complete stop' instead of 'Confirm'.",
        (),
        {"project": "mob"},
    ),
    22: (
        "Calibrate the temperature loggers in cold storage",
        "The loggers in the cold storage at the Leipzig warehouse drift by up to 1.5 °C.",
        (
            "Thermaq calibrated all twelve loggers; their certificate is valid for twelve months, next due in June "
            "2025.",
        ),
        {"project": "logi", "updated": ago(2024, 7, 2), "status": "Closed"},
    ),
    48: (
        "Betriebsvereinbarung zur elektronischen Arbeitszeiterfassung",
        "Der Betriebsrat hat der elektronischen Arbeitszeiterfassung im Lager Leipzig zugestimmt. Pausen werden ab "
        "sechs Stunden Arbeitszeit automatisch abgezogen; Korrekturen gehen über die Schichtleitung.",
        ("Helga Brandt: Die Terminals an den Toren 1 und 4 sind montiert, Start ist am 1. August.",),
        {"project": "hr", "updated": ago(2024, 8, 20), "status": "Closed"},
    ),
    745: (
        "Database connection leak in the portal API after the ORM upgrade",
        "Since the ORM upgrade the portal API does not return connections to the pool when a request is cancelled; "
        "after about six hours all 100 connections are taken and the portal shows an empty page.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    740: (
        "Database connection limits for the portal API",
        "The portal API may open at most 100 connections.",
        (),
        {"project": "portal"},
    ),
    1275: (
        "Screen reader skips the address fields in the portal checkout",
        "With VoiceOver and NVDA the focus jumps from the name field straight to the Pay button; the address inputs "
        "have no labels. Found in the external accessibility audit.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    380: (
        "Kaliningrad transit: export declaration times out in the EDI gateway",
        "Transit shipments through Lithuania to Kaliningrad need a T1 document; the EDI gateway export times out when "
        "the T1 lists more than 50 items.",
        ("Customs desk: we split the T1 per 40 items as a workaround until the gateway is fixed.",),
        {"project": "logi", "type_name": "Bug"},
    ),
    1440: (
        "Enforce MFA on the VPN gateway for contractors",
        "Contractor accounts still log in to the VPN with a password only; security wants MFA through the identity "
        "provider by the end of the quarter.",
        (),
        {"project": "infra"},
    ),
    # A sixth batch of targets, each beside an older near miss where one fits.
    57: (
        "Missing proof of delivery scans from Nordvik Cargo",
        "Nordvik Cargo drivers at the Gdańsk depot skip the proof of delivery scan when the consignee signs on paper.",
        (
            "Checked the last 200 deliveries: 31 have no scan.",
            "Agreed with Nordvik: paper signatures are photographed and uploaded within 24 hours, otherwise we "
            "withhold 2% of the freight invoice.",
        ),
        {"project": "logi", "updated": ago(2024, 7, 29), "status": "Closed"},
    ),
    50: ("Nordvik Cargo rate card for the Gdańsk depot", "", (), {"project": "logi"}),
    236: (
        "No payout run on 3 October (German Unity Day)",
        "3 October is a bank holiday in Germany; payouts scheduled for that day go out on 2 October instead, and the "
        "settlement file arrives a day later.",
        (),
        {"project": "pay"},
    ),
    312: (
        "Show the estimated time of arrival on the order tracking page",
        "Shippers ask when the truck will arrive. The carrier API sends an arrival estimate with every scan, but the "
        "order tracking page only shows the last scan.",
        (),
        {"project": "portal", "type_name": "Feature"},
    ),
    298: (
        "Estimated delivery date in the shipment history",
        "Show the promised delivery date next to each shipment.",
        (),
        {"project": "portal"},
    ),
    612: (
        "Neue Dienstwagenregelung ab Juli",
        "Die Dienstwagenregelung wird angepasst: Elektroautos bis 60.000 € Listenpreis, die private Nutzung wird mit "
        "0,25 % versteuert. Ladekarten gibt es über die Personalabteilung.",
        (),
        {"project": "hr"},
    ),
    590: (
        "Dienstwagen: Ladekarten für Elektroautos",
        "Die Ladekarten werden zentral bestellt.",
        (),
        {"project": "hr"},
    ),
    1031: (
        "Tarvik T6 label printers cut off the SSCC barcode",
        "Since firmware 4.2.7 the Tarvik T6 printers at the Zaragoza site shift the print 3 mm to the right on "
        "100 x 150 mm labels; the SSCC barcode is cut and the carrier rejects the pallets.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1186: (
        "Roll out the check-in kiosk for drivers at the Leipzig warehouse gate",
        "Drivers register at the gate on a self-service check-in kiosk instead of the paper list; the kiosk prints "
        "the dock door and the slot.",
        ("Kenji Satō: Portiq ships the two kiosks on 14 April; the gate team needs half a day of training.",),
        {"project": "logi"},
    ),
    1142: (
        "Check-in times for drivers at the Leipzig warehouse gate",
        "Drivers who check in more than 30 minutes late lose their slot.",
        (),
        {"project": "logi"},
    ),
    1232: (
        "Cloud cost spike: NAT gateway data processing charges tripled",
        "The cloud bill for February shows €18,400 for NAT gateway data processing instead of the usual €6,000; most "
        "of it is the nightly backup job copying to the object storage bucket through the NAT gateway instead of the "
        "storage endpoint.",
        (),
        {"project": "infra"},
    ),
    1292: (
        "Direct debit returns with reason code AM04 are not booked",
        "When the bank returns a SEPA direct debit with reason code AM04 (insufficient funds), the ledger keeps the "
        "invoice as paid; finance ops only finds these at the month-end close.",
        (
            "Nadia Haddad: we also get MD06 returns (the customer asked their bank for a refund); those need a "
            "different dunning letter.",
        ),
        {"project": "pay", "type_name": "Bug"},
    ),
    1284: ("Direct debit mandate expiry reminders", "", (), {"project": "pay"}),
    # A seventh batch of targets, each beside an older near miss where one fits.
    1462: (
        "Payout retry fails with UniqueViolation on payout_items_pkey",
        "When the payout worker retries a batch after a PSP timeout, it inserts the payout items a second time and "
        "Postgres answers `psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "
        '"payout_items_pkey"`. The batch stays in state RETRYING and the sellers are paid a day late.',
        ("Ben Carter: the retry should upsert on (batch_id, seller_id) instead of inserting again.",),
        {"project": "pay", "type_name": "Bug"},
    ),
    1434: (
        "Month-end import stops on a duplicate key in the ledger",
        'The ledger import stops with `duplicate key value violates unique constraint "ledger_entries_pkey"` when the '
        "bank statement import runs twice on the same day.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1347: (
        "Driver app crashes when a photo comes back after the delivery screen was closed",
        "Crash reporter, Android 3.9.2: `java.lang.IllegalStateException: Fragment DeliveryDetailFragment not attached "
        "to a context` at DeliveryDetailFragment.onPhotoPicked(DeliveryDetailFragment.kt:212). It happens when the "
        "driver opens the camera, the app goes to the background and the fragment is gone when the photo returns.",
        (),
        {"project": "mob", "type_name": "Bug"},
    ),
    1183: (
        "Sub-account users get 403 Forbidden on shipment documents",
        "GET /api/v2/shipments/{id}/documents answers 403 Forbidden for users invited as sub-accounts, so they cannot "
        "download the CMR or the commercial invoice; the main account user gets 200. The permission check reads the "
        "role of the parent account instead of the user's own role.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1118: (
        "API key page returns 403 Forbidden after the role change",
        "Admins of shipper accounts see 403 Forbidden on the API key page since the roles were renamed.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1397: (
        "Outlook rejects mail from noreply@kestrel.example",
        "Since 2 March Microsoft answers every message from noreply@kestrel.example with `550 5.7.515 Access denied, "
        "sending domain kestrel.example does not meet the required authentication level`. The new mail relay is not "
        "in the SPF record, so order confirmations and password resets to Outlook and Hotmail addresses bounce.",
        (),
        {"project": "infra", "type_name": "Bug"},
    ),
    1371: (
        "Shared mailbox invoices@kestrel.example over its quota",
        "Merchants who reply to invoice e-mails get a bounce; the mailbox quota of 50 GB is reached.",
        (),
        {"project": "pay"},
    ),
    1128: (
        "Label requests to Nordhafen Logistik time out at peak",
        "The label service gives up after 3 s: `carrier_timeout_ms: 3000` in config/label-service.yaml. At peak the "
        "Nordhafen API needs 4 to 6 s, so about 8% of the labels fail with 'upstream timeout' and the packers reprint "
        "them by hand. Raise it to 8000 and retry once.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1346: (
        "Settlement import skips the PSP file after a checksum mismatch",
        "The nightly import logs `WARN settlement-import: file SETTLE_20260210.csv skipped: checksum mismatch` and "
        "carries on as if nothing happened. The PSP re-sends corrected files with CRLF line endings, which changes "
        "the checksum, so the day is never booked and the reconciliation report is off.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1298: (
        "Settlement import: file skipped when the PSP sends it twice",
        "The second copy of a settlement file is skipped on purpose; finance asked for a warning in the log.",
        (),
        {"project": "pay"},
    ),
    1381: (
        "QR code on the self-service returns label does not scan",
        "Carrier drivers cannot scan the QR code on returns labels printed from the portal; they type the tracking "
        "number by hand.",
        (
            "Amélie Roux: the QR code is printed at 12 mm, the carrier scanners need at least 20 mm and a quiet zone "
            "around it.",
        ),
        {"project": "portal", "type_name": "Bug", "status": "In progress"},
    ),
    1299: (
        "QR code on the self-service returns label",
        "Add a QR code with the tracking number to the returns label.",
        (),
        {"project": "portal", "status": "Closed"},
    ),
    1423: (
        "Customers cannot log in when their e-mail address contains a plus sign",
        "Addresses such as orders+eu@brightcart.example are rejected on the login page with 'Please enter a valid "
        "e-mail address', although the sign-up form accepted them; the login page validates with an older pattern.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1453: (
        "KSeF odrzuca faktury korygujące",
        "Od lutego Krajowy System e-Faktur (KSeF) odrzuca nasze faktury korygujące dla polskiego podmiotu z błędem "
        "„Brak numeru KSeF faktury pierwotnej”. Zwykłe faktury przechodzą bez problemu; księgowość wystawia korekty "
        "ręcznie w portalu KSeF.",
        (
            "Małgorzata Nowak: numer KSeF faktury pierwotnej nie jest zapisywany w ledger service, więc korekta go nie "
            "zawiera.",
        ),
        {"project": "pay", "type_name": "Bug"},
    ),
    1063: (
        "Ritardi nelle consegne di Trasporti Bellini a Milano",
        "Da settembre Trasporti Bellini consegna in ritardo quasi un pallet su cinque nella zona di Milano; i clienti "
        "chiamano il servizio clienti prima che il tracking mostri qualcosa.",
        ("Dario Rossi: Bellini dice che manca un autista sul giro del mattino; ci mandano un piano entro fine mese.",),
        {"project": "logi"},
    ),
    1403: (
        "Booking cancellations after 18:00 are not passed to the carrier",
        "When a shipper cancels a pickup booking in the portal after 18:00, the cancellation is stored but never sent "
        "to the carrier API, because the nightly batch has already run. The truck still comes the next morning and "
        "we pay a failed-pickup fee.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1389: (
        "Cancellation fee for late carrier bookings",
        "Carriers charge 40 EUR when a booking is cancelled less than two hours before the pickup.",
        (),
        {"project": "logi"},
    ),
    1337: (
        "Rescheduled delivery slots send no confirmation e-mail",
        "When a supplier moves its delivery slot in the portal, the yard schedule is updated, but no confirmation "
        "e-mail goes out and the old slot stays in the supplier's calendar. Two suppliers came on the old day last "
        "week.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1257: (
        "Caldora temperature sensors drop off the gateway in cold storage",
        "The Caldora CT-20 sensors in the Leipzig cold storage lose their gateway connection every few hours and the "
        "dashboard keeps showing the last value as current; QA found a three-hour gap in the temperature log.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1491: (
        '"Payment failed" for every Maestro card at checkout',
        "Since Monday every Maestro payment ends with 'Payment failed' on the checkout page; the PSP answers with code "
        "05 do_not_honor because we send no 3-D Secure challenge for Maestro since the fraud engine update. Visa and "
        "Mastercard are fine.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1439: (
        "Gate 2 barrier stays closed for pre-registered trucks",
        "At the Leipzig warehouse the number plate camera at gate 2 reads the plate, but the barrier only opens when "
        "the gatehouse presses the button; in the morning peak the trucks queue back onto the road.",
        (),
        {"project": "logi", "type_name": "Bug"},
    ),
    1363: (
        "Proof-of-delivery photos fail with 413 Request Entity Too Large",
        "Since the mobile backend moved to the new ingress, photos above 8 MB from the new handhelds fail to upload "
        "with HTTP 413: `client_max_body_size` is 8m on the new ingress, it was 25m on the old one. Drivers retry "
        "until they give up, and the stop has no photo.",
        (),
        {"project": "mob", "type_name": "Bug"},
    ),
    1318: (
        "Photo upload limits for the driver app",
        "Photos are resized to 2 MB on the phone before the upload.",
        (),
        {"project": "mob"},
    ),
    1168: (
        "Invoice run crashes with a KeyError for Swiss merchants",
        "The invoice run stops at the first Swiss merchant:\n"
        "Traceback (most recent call last):\n"
        '  File "invoicing/render.py", line 88, in render_line\n'
        '    rate = profile["vat_rate"]\n'
        "KeyError: 'vat_rate'\n"
        "Merchants of the new CH entity have no VAT rate in their profile; the renderer should fall back to 0 and "
        "print the reverse charge note.",
        (),
        {"project": "pay", "type_name": "Bug"},
    ),
    1093: (
        "Tracking links in the delivery SMS lead to a 404",
        "The SMS gateway cuts https://track.kestrel.example/s?ref=K8F2Q&lang=de at the ampersand and escapes the rest, "
        "so the tracking page gets a broken ref and answers 404 Not Found. Only the German and Polish SMS templates "
        "have the lang parameter.",
        (),
        {"project": "portal", "type_name": "Bug"},
    ),
    1071: (
        "Shorter tracking links in the delivery SMS",
        "A shorter link domain saves 20 characters per SMS.",
        (),
        {"project": "portal"},
    ),
    155: (
        "Hall B label printers print every label twice",
        "Since the spooler update every shipping label in Hall B comes out twice; the packers throw the copies away.",
        (
            "Same on printers 3 and 4.",
            "Fixed: the spooler resent the job whenever the printer answered late; retries are now off for the Hall B "
            "queue.",
        ),
        {"project": "logi", "updated": ago(2024, 10, 18), "status": "Closed", "type_name": "Bug"},
    ),
    1359: (
        "Ramp heaters at the Gdańsk depot trip in frost",
        "The door heaters at ramps 4 to 6 trip the fuse on cold mornings, and the doors freeze to their seals.",
        (
            "Marta Kowalczyk (depot): this winter they tripped every morning below −15 °C; the electrician suspects "
            "the circuit they share with the dock levellers.",
        ),
        {"project": "logi", "status": "In progress"},
    ),
}

# Meetings: id -> (title, agenda items as (title, notes, outcomes), options). Meeting 1 is June 2024, 330 May 2026.
MeetingPlant = tuple[str, tuple[tuple[str, str, tuple[str, ...]], ...], dict[str, Any]]
MEETING_TARGETS: dict[int, MeetingPlant] = {
    # questions
    212: (
        "People leadership sync",
        (
            (
                "Hiring freeze",
                "The budget for H2 is still open.",
                ("Decided: the hiring freeze stays until the Q3 budget review; on-call infra roles are exempt.",),
            ),
            ("Team offsite", "Lyon or Zaragoza.", ()),
        ),
        {"project": "hr"},
    ),
    195: (
        "Mobile release review",
        (("Code freeze for 3.2", "Freeze starts on the 12th.", ("Agreed: no new strings after the freeze.",)),),
        {"project": "mob"},
    ),
    268: (
        "Warehouse ops weekly",
        (
            (
                "Stock count Leipzig",
                "The inventory team is short-staffed in June.",
                ("Moved to Saturday 14 June; Jürgen agreed to staff it.",),
            ),
        ),
        {"project": "logi"},
    ),
    240: (
        "Security review: checkout penetration test",
        (("Scope", "External testers from Bastion Labs.", ("The test window is the first week of March.",)),),
        {"project": "pay"},
    ),
    183: (
        "Carrier performance review",
        (
            (
                "Carrier tender Poland",
                "Three bids: Ravnik, Gerlach Freight, Dannholm.",
                ("Decision: award the Poland lanes to Ravnik from July.",),
            ),
        ),
        {"project": "logi"},
    ),
    96: (
        "Site safety walk",
        (
            (
                "Forklift battery recall",
                "Vendor notice for the 2023 lithium packs.",
                ("Helga follows up with the vendor and swaps the packs in Hall B.",),
            ),
        ),
        {"project": "logi"},
    ),
    320: (
        "Leadership sync",
        (("Office move Lyon", "The lease ends in March.", ("We move to the Part-Dieu building in April.",)),),
        {},
    ),
    # word forms
    301: (
        "People team sync",
        (
            (
                "Seasonal drivers for the December peak",
                "The agency offers 40 drivers.",
                ("Agreed to hire 25 seasonal drivers through the agency.",),
            ),
        ),
        {"project": "hr"},
    ),
    77: (
        "Leadership sync",
        (("Marketing budget Q3", "Numbers from the agency.", ("Approved: 120k for Q3, review in September.",)),),
        {},
    ),
    287: (
        "Site safety walk",
        (
            (
                "Shuttle bus to the Zaragoza site",
                "The night shift has no public transport.",
                ("Decision: two shuttle runs per shift from September.",),
            ),
        ),
        {"project": "logi"},
    ),
    178: (
        "Warehouse ops weekly",
        (("Inventory audit", "Auditors are booked elsewhere.", ("The inventory audit is rescheduled to November.",)),),
        {"project": "logi"},
    ),
    # Older meetings with the other words but not the word form.
    298: (
        "People team sync",
        (("Seasonal drivers for the December peak", "Training plan for the agency drivers.", ()),),
        {"project": "hr"},
    ),
    73: ("Leadership sync", (("Marketing budget Q3", "First draft from the agency.", ()),), {}),
    283: (
        "Site safety walk",
        (("Shuttle bus to the Zaragoza site", "Still collecting quotes.", ()),),
        {"project": "logi"},
    ),
    170: ("Warehouse ops weekly", (("Inventory audit", "Auditors confirmed the date.", ()),), {"project": "logi"}),
    # phrase vs reordered
    250: ("Night shift handover", (("Open points", "", ()),), {"project": "logi"}),
    231: ("Handover of the shift at night", (("Open points", "", ()),), {"project": "logi"}),
    199: ("Returns bay layout", (("Drawings", "", ()),), {"project": "logi"}),
    160: ("Layout of the bay for returns", (("Drawings", "", ()),), {"project": "logi"}),
    310: ("Peak capacity planning", (("Forecast", "", ()),), {"project": "logi"}),
    280: ("Planning the capacity for peak", (("Forecast", "", ()),), {"project": "logi"}),
    # typos
    120: ("Forklift safety briefing", (("New drivers", "Six new drivers in Hall B.", ()),), {"project": "logi"}),
    175: ("Quarterly business review with KTL", (("Volumes", "", ()),), {"project": "logi"}),
    45: (
        "Peak season readiness",
        (("Temporary racking in Hall D", "The rental racks arrive in October.", ("Racking inspection on day one.",)),),
        {"project": "logi"},
    ),
    265: (
        "Fraud rules review",
        (("Velocity checks for gift cards", "Gift card fraud doubled in spring.", ("Limit: three cards per hour.",)),),
        {"project": "pay"},
    ),
    # Older meetings without the misspelt words.
    172: ("Volume review with KTL", (("Volumes", "", ()),), {"project": "logi"}),
    41: ("Site safety walk", (("Racking inspection in Hall D", "", ()),), {"project": "logi"}),
    262: ("Fraud rules review", (("Gift cards: new BIN ranges", "", ()),), {"project": "pay"}),
    # exact word beside fuzzy neighbours
    295: ("Dock audit Leipzig", (("Findings", "", ()),), {"project": "logi"}),
    290: ("Docket and audio setup for the town hall", (("Checklist", "", ()),), {}),
    318: ("Support agent training", (("Schedule", "", ()),), {"project": "portal"}),
    315: ("Agenda planning for the all-hands", (("Topics", "", ()),), {}),
    # versions and digits
    260: ("App sprint 42 retrospective", (("What went well", "", ()),), {"project": "mob"}),
    150: ("App sprint 24 retrospective", (("What went well", "", ()),), {"project": "mob"}),
    222: ("Q4 2025 planning", (("Targets", "", ()),), {}),
    130: ("Q4 2024 planning", (("Targets", "", ()),), {}),
    # German folding
    205: (
        "Works council jour fixe",
        (("Overtime figures", "Frau Köhler asked for the overtime figures per site.", ()),),
        {"project": "hr"},
    ),
    # unknown word
    232: ("Tachograph data review", (("Findings", "", ()),), {"project": "logi"}),
    303: ("Drone inventory pilot", (("Results", "", ()),), {"project": "logi"}),
    # old deep content: among the oldest 80 meetings, the only match is in the agenda
    12: (
        "Warehouse ops weekly",
        (
            ("Stock count status", "Counts are on track.", ()),
            ("Lyon", "", ("We agreed to stop printing paper delivery notes in Lyon from August.",)),
        ),
        {"project": "logi"},
    ),
    33: (
        "Payments weekly sync",
        (("Chargebacks", "", ("Chargebacks under 25 EUR are accepted without evidence from now on.",)),),
        {"project": "pay"},
    ),
    58: (
        "Infra on-call handover",
        (("Tooling", "", ("The pager moves from PagerNest to the new rota tool in September.",)),),
        {"project": "infra"},
    ),
    25: (
        "Month-end close check-in",
        (("Close calendar", "", ("The ledger cut-off moves to the third working day.",)),),
        {"project": "pay"},
    ),
    5: (
        "Site safety walk",
        (("Incidents", "The insurance broker wants the forklift incident log.", ()),),
        {"project": "logi"},
    ),
    # stopword-heavy
    241: (
        "Warehouse ops weekly",
        (("Mezzanine racking", "The load test passed.", ("The mezzanine opens for small parts in May.",)),),
        {"project": "logi"},
    ),
    275: (
        "Infra on-call handover",
        (
            (
                "Smoke detector false alarms in the server room",
                "Nobody got to the bottom of it yet.",
                ("Facility management replaces the detector.",),
            ),
        ),
        {"project": "infra"},
    ),
    329: (
        "All-hands",
        (("Questions", "Questions about the bonus scheme.", ("The bonus is paid out with the June payroll.",)),),
        {},
    ),
    # A third batch of targets, each beside an older near miss where one fits.
    236: (
        "Black Friday war room",
        (
            (
                "Traffic forecast",
                "Last year checkout peaked at nine times the normal traffic.",
                ("The autoscaling floor goes up to 12 pods on 24 November.",),
            ),
            ("Support rota", "Customer success doubles the chat staff.", ()),
        ),
        {"project": "portal"},
    ),
    84: (
        "Black Friday retrospective",
        (("What went well", "Checkout held up; the carrier API was slow.", ()),),
        {"project": "portal"},
    ),
    255: (
        "Customs broker selection",
        (
            (
                "Shortlist",
                "Van der Berg Customs and Maasport Brokers.",
                ("Decided: Maasport Brokers from Q2; Van der Berg keeps the Norway lanes.",),
            ),
        ),
        {"project": "logi", "location": "Maasvlakte office"},
    ),
    245: (
        "Customs broker invoices",
        (("Open invoices", "Two invoices from Van der Berg are disputed.", ()),),
        {"project": "logi"},
    ),
    140: (
        "Works council jour fixe",
        (
            (
                "Vier-Tage-Woche",
                "Herr Jäger asked for a four-day week pilot in the Leipzig warehouse.",
                ("Agreed: a pilot for the early shift from September.",),
            ),
        ),
        {"project": "hr"},
    ),
    90: (
        "Incident review",
        (
            (
                "Outage on 2 December: Redis failover",
                "Sentinel promoted a replica that was 40 s behind.",
                ("Action: set min-replicas-to-write 1 on the Redis cluster.",),
            ),
        ),
        {"project": "infra"},
    ),
    86: ("Incident review", (("Redis cluster memory", "Eviction policy discussion.", ()),), {"project": "infra"}),
    322: (
        "Payments weekly sync",
        (
            (
                "PSD3 readiness",
                "The draft narrows the SCA exemption for low-value payments.",
                ("Legal sends a gap analysis by the end of June.",),
            ),
        ),
        {"project": "pay", "location": "Room Kiruna"},
    ),
    300: (
        "Payments weekly sync",
        (("PSD2 exemptions", "Statistics on low-value exemptions.", ()),),
        {"project": "pay"},
    ),
    190: (
        "Mobile release review",
        (
            (
                "Release 4.0 go/no-go",
                "Crash-free sessions at 99.2% in the beta.",
                ("Go for 4.0 on Tuesday; the tablet layout waits for 4.1.",),
            ),
        ),
        {"project": "mob"},
    ),
    186: (
        "Mobile release review",
        (("Release 4.0 scope", "Which features make it into 4.0.", ()),),
        {"project": "mob"},
    ),
    # A fourth batch of targets, each beside an older near miss where one fits.
    227: (
        "Warehouse ops weekly",
        (
            (
                "Reach truck lease",
                "Marek: the Liftmaster lease for the six reach trucks ends in January; the renewal offer is €1,450 "
                "per truck per month.",
                ("Marek asks Kanto for a second quote before we sign.",),
            ),
            ("Yard lighting", "Two lamps at gate 3 are out.", ()),
        ),
        {"project": "logi"},
    ),
    302: (
        "Incident review",
        (
            (
                "Checkout outage on Tuesday 17 March",
                "The payment page returned 502 for 38 minutes after the TLS certificate on the edge proxy expired.",
                ("Action: alert 21 days before any certificate expires; Ben owns the alert.",),
            ),
        ),
        {"project": "infra"},
    ),
    297: (
        "Incident review",
        (
            (
                "Checkout outage on 3 March",
                "A bad feature flag broke the basket for 12 minutes.",
                ("Flags need a second reviewer.",),
            ),
        ),
        {"project": "infra"},
    ),
    156: (
        "Carrier onboarding",
        (("Baltic Express", "Documents and insurance for the new carrier.", ()),),
        {"project": "logi"},
    ),
    110: ("Carrier onboarding", (("Nordhafen Logistik", "Rate card and pickup windows.", ()),), {"project": "logi"}),
    317: (
        "Leipzig site meeting",
        (
            (
                "Coffee machine in the canteen",
                "The bean-to-cup machine has been broken three times since Easter.",
                ("A second machine arrives in June; the old one moves to the Hall B break room.",),
            ),
        ),
        {},
    ),
    208: (
        "Architecture review board",
        (
            (
                "Monorepo for checkout",
                "Three repositories (checkout-web, checkout-api, checkout-infra) would move into one.",
                ("Decided: one monorepo from the 4.2 cycle; the CI runner pool doubles.",),
            ),
        ),
        {"project": "infra"},
    ),
    163: (
        "Summer party planning",
        (
            (
                "Boat trip on the Elbe",
                "The operator cancelled our booking for 4 July because of low water.",
                ("Plan B: a barbecue in the Leipzig warehouse yard.",),
            ),
        ),
        {"project": "hr"},
    ),
    # A fifth batch of targets, each beside an older near miss where one fits.
    292: (
        "Payments weekly sync",
        (
            (
                "Visa dispute monitoring",
                "Priya: the Visa dispute monitoring programme threshold drops from 1% to 0.9% of transactions in "
                "April; we are at 0.7% and rising with the marketplace sellers.",
                ("Priya prepares a dispute reduction plan with the risk team by the end of the month.",),
            ),
            ("Payout calendar", "Easter Monday is a bank holiday for the UK entity.", ()),
        ),
        {"project": "pay"},
    ),
    308: (
        "App sprint 62 review",
        (
            (
                "Offline sync conflicts",
                "When two drivers edit the same stop offline, the last write wins and the first driver's photos are "
                "lost.",
                ("Decided: keep both versions and flag the stop for the dispatcher from sprint 63.",),
            ),
            ("Demo: tablet layout", "", ()),
        ),
        {"project": "mob"},
    ),
    248: (
        "Peak season readiness",
        (
            (
                "Christmas opening hours at the Lyon cross-dock",
                "Customers ask whether the cross-dock works between the holidays.",
                (
                    "Agreed: the Lyon cross-dock is closed on 25 and 26 December and on 1 January, with a reduced "
                    "shift from 27 to 31 December.",
                ),
            ),
            ("Temporary pickers", "The agency confirmed 40 pickers for Leipzig.", ()),
        ),
        {"project": "logi"},
    ),
    215: (
        "Works council jour fixe",
        (
            (
                "Schichtzulage für die Nachtschicht",
                "Der Betriebsrat fordert 25 % Nachtzuschlag statt 20 %; die Geschäftsführung prüft die Kosten für "
                "Leipzig und Gdańsk.",
                ("Entscheidung im Oktober, sobald die Kostenrechnung vorliegt.",),
            ),
        ),
        {"project": "hr"},
    ),
    213: (
        "Works council jour fixe",
        (("Besetzung der Nachtschicht", "Zu wenige Fahrer in der Nachtschicht in Leipzig.", ()),),
        {"project": "hr"},
    ),
    145: (
        "Customer feedback round",
        (
            (
                "Welcome e-mails for new shippers",
                "Shippers say the welcome e-mail lands in spam; the DKIM record for mail.kestrel.example is missing "
                "since the DNS move.",
                ("Infra adds the DKIM record this week; customer success resends the welcome e-mails.",),
            ),
        ),
        {"project": "portal"},
    ),
    30: (
        "Payments weekly sync",
        (
            (
                "Card scheme fees",
                "Mastercard adds a cross-border fee for cards issued outside the EEA.",
                ("Agreed: we pass the Mastercard cross-border fee on to marketplace sellers from October.",),
            ),
        ),
        {"project": "pay"},
    ),
    27: (
        "Payments weekly sync",
        (("Card scheme fees", "Visa raises its scheme fee in October; no action for now.", ()),),
        {"project": "pay"},
    ),
    325: (
        "Incident review",
        (
            (
                "Status page during the 5 May outage",
                "Customers heard about the outage on social media 25 minutes before the status page said anything; "
                "the on-call was busy with the fix.",
                (
                    "Action: from now on the incident bot posts to the status page automatically 10 minutes into any "
                    "Sev2 or higher.",
                ),
            ),
        ),
        {"project": "infra"},
    ),
    323: (
        "Incident review",
        (("Status page wording", "Support wants plainer wording on the status page.", ()),),
        {"project": "infra"},
    ),
    # A sixth batch of targets, each beside an older near miss where one fits.
    47: (
        "Comité de seguridad Zaragoza",
        (
            (
                "Carretillas en el muelle 3",
                "Dos incidentes con carretillas elevadoras en julio; falta un espejo en el cruce del muelle 3.",
                ("Se instala un espejo convexo y la velocidad se limita a 6 km/h en el muelle.",),
            ),
            ("Equipos de protección", "Faltan chalecos de la talla XL.", ()),
        ),
        {"project": "logi", "location": "Zaragoza meeting room"},
    ),
    114: (
        "Carrier performance review",
        (
            (
                "On-time pickups: Baltika Trans",
                "Dario: Baltika Trans picked up on time in only 81% of its slots in November, against a target of 95%.",
                (
                    "Dario sends Baltika Trans a formal warning; if December stays under 90% we move the Riga lanes to "
                    "another carrier.",
                ),
            ),
        ),
        {"project": "logi"},
    ),
    108: (
        "Carrier performance review",
        (("Baltika Trans onboarding", "Contract signed; the first pickups in Riga start next month.", ()),),
        {"project": "logi"},
    ),
    201: (
        "Point mensuel bureau de Lyon",
        (
            (
                "Télétravail",
                "Les équipes demandent trois jours de télétravail par semaine au lieu de deux.",
                ("Décision : deux jours fixes de télétravail et un troisième jour flexible à partir de septembre.",),
            ),
            ("Cantine", "Le prestataire change en juillet.", ()),
        ),
        {"project": "hr", "location": "Lyon office, 2nd floor"},
    ),
    277: (
        "Architecture review board",
        (
            (
                "Postgres 12 end of life",
                "Postgres 12 is out of support since November 2024; the two reporting databases still run it.",
                ("Decided: both move to Postgres 16 before the end of Q1; Marek owns the plan.",),
            ),
        ),
        {"project": "infra"},
    ),
    272: (
        "Architecture review board",
        (("Postgres 16 upgrade", "The replica tests on Postgres 16 passed.", ()),),
        {"project": "infra"},
    ),
    # A seventh batch of targets, each beside an older near miss where one fits.
    89: (
        "Peak season readiness",
        (
            (
                "Overflow warehouse",
                "The Leipzig warehouse is at 96% of its bin locations; the hall in Stryków has 4,000 pallet places "
                "free.",
                (
                    "Decided: we rent the overflow hall in Stryków from 2 January to 31 March; Helga plans the shuttle "
                    "trucks.",
                ),
            ),
            ("Returns after the holidays", "The returns bay expects twice the usual volume in January.", ()),
        ),
        {"project": "logi"},
    ),
    76: (
        "Peak season readiness",
        (("Overflow warehouse options", "Stryków or Łódź; quotes from two landlords are pending.", ()),),
        {"project": "logi"},
    ),
    204: (
        "Incident review",
        (
            (
                "DNS outage: the kestrel.example delegation",
                "The registrar dropped two of our four name servers after the contract renewal; the portal and the "
                "tracking API were unreachable for many customers for 70 minutes.",
                (
                    "Action: monitor the delegation at the registrar from outside; Oliver moves the domain to the "
                    "registrar's business account.",
                ),
            ),
        ),
        {"project": "infra"},
    ),
    253: (
        "Change advisory board",
        (
            (
                "Change freeze over the holidays",
                "Last year two changes on 23 December broke the payout run.",
                (
                    "Decided: no production changes from 15 December to 5 January except Sev1 fixes; Ben Carter "
                    "approves any exceptions.",
                ),
            ),
        ),
        {"project": "infra"},
    ),
    247: (
        "Customer feedback round",
        (
            (
                "Late shipments",
                "Shippers who pay for express delivery want the surcharge back when the parcel arrives late.",
                (
                    "Agreed: from January shippers are refunded the express surcharge automatically when we ship more "
                    "than one day late.",
                ),
            ),
        ),
        {"project": "portal"},
    ),
    312: (
        "Warehouse ops weekly",
        (
            (
                "Zaragoza site handover",
                "José Álvarez leaves at the end of May; Lucía Ferrer takes over the Zaragoza site.",
                (
                    "José walks Lucía through the supplier contracts and the safety file in the last week of May; the "
                    "handover is done by 29 May.",
                ),
            ),
        ),
        {"project": "logi"},
    ),
    233: (
        "Forklift telematics pilot",
        (
            (
                "Results from Hall B",
                "Impact alerts from the twelve trucks with the new units; two drivers had repeated impacts at the "
                "racking ends.",
                ("Agreed: extend the pilot to the Lyon cross-dock in Q1.",),
            ),
        ),
        {"project": "logi"},
    ),
    137: (
        "Werkoverleg Rotterdam hub",
        (
            (
                "Parkeerplaatsen voor vrachtwagens",
                "Chauffeurs wachten 's nachts langs de Waalhaven omdat het terrein vol staat.",
                (
                    "Besloten: vanaf maart huren we twintig extra parkeerplaatsen bij de buren; de portier wijst ze "
                    "toe.",
                ),
            ),
            ("Kantine", "De koffieautomaat is weer kapot.", ()),
        ),
        {"project": "logi", "location": "Rotterdam hub, kantine"},
    ),
    80: (
        "Spotkanie zespołu magazynu Gdańsk",
        (
            (
                "Grafik na okres świąteczny",
                "Na grudzień brakuje sześciu osób na nocnej zmianie.",
                ("Ustalono: dodatkowe zmiany w soboty 7 i 14 grudnia, płatne 150% stawki; grafik wisi od 1 grudnia.",),
            ),
        ),
        {"project": "logi", "location": "Gdańsk depot, sala socjalna"},
    ),
}
# Meetings found by a participant's name: people who attend this one meeting only.
PARTICIPANT_TARGETS: dict[int, tuple[str, str]] = {
    70: ("Oksana Kovalenko", "okovalenko"),
    185: ("Rafael Quintero", "rquintero"),
    # A third batch.
    118: ("Łukasz Wójcik", "lwojcik"),
    270: ("Anaïs Lefort", "alefort"),
    # A fourth batch.
    156: ("Tomasz Zieliński", "tzielinski"),
    # A fifth batch.
    65: ("Grzegorz Brzęczek", "gbrzeczek"),
    # A seventh batch.
    233: ("Siobhán O'Neill", "soneill"),
}

# Wiki pages: id -> (title, text). Released OpenProject versions show titles only.
WIKI_TARGETS: dict[int, tuple[str, str]] = {
    23: (
        "Parental leave requests",
        "Submit the request in the HR system at least eight weeks ahead; the people team confirms within a week.",
    ),
    61: (
        "Incident severity levels",
        "A Sev1 incident is a full outage of checkout or the WMS. The escalation path for a Sev1: on-call engineer, "
        "then the incident commander, then the CTO.",
    ),
    8: (
        "Deployments on Fridays",
        "We do not deploy to production on Fridays after 14:00. A hotfix on a Friday needs the on-call lead's "
        "approval.",
    ),
    3: ("Cloud spend approvals", "Cloud spend above 5k per month needs a sign-off from the platform lead and finance."),
    47: ("Onboarding warehouse temps", "Temps start with a half-day safety briefing and a buddy from the shift."),
    12: ("Label printer configuration", "Vexa L410 printers: darkness 22, speed 4 ips, media type thermal."),
    58: ("Cancellation of carrier bookings", "Bookings can be called off free of charge until 24 hours before pickup."),
    # Older pages with the other words only (word forms, typos, technical spellings).
    46: ("Warehouse temps: shift patterns", "Early, late and night shifts."),
    57: ("Carrier bookings FAQ", "Questions from the transport planners."),
    17: ("Marketplace payouts calendar", "Payout days per country."),
    76: ("Thresholds for fraud alerts", "Scores above 80 go to manual review."),
    85: ("Excursions policy for team events", "Team events are paid up to 50 EUR per person."),
    49: ("Templates for delivery notices (SMS)", "Text messages sent to the consignee."),
    43: ("Node pools in the cluster", "How the pools are labelled."),
    70: ("Blue green deployment", "Two production stacks; the router switches between them."),
    35: ("Deployment of green and blue environments", "How the two stacks are built."),
    55: ("Data retention policy", "What we keep, for how long, and who deletes it."),
    40: ("Policy for the retention of data", "Draft from 2024, superseded."),
    33: ("Kubernetes upgrade runbook", "Drain, upgrade, uncordon, one node pool at a time."),
    18: ("Reconciliation of marketplace payouts", "Per seller, once a week, against the settlement file."),
    77: ("Expense approval thresholds", "Up to 500 EUR the team lead approves; above, the department head."),
    86: ("Cold chain temperature excursions", "An excursion above 8 °C for more than 30 minutes is reported to QA."),
    66: ("Office lease Zaragoza", "The lease runs until 2029 with a break option in 2027."),
    60: ("Release notes process", "Who writes the release notes and when they go out."),
    27: ("ADR-0012: Event sourcing for the ledger", "Status: accepted."),
    26: ("ADR-0011: Message broker choice", "Status: accepted."),
    82: ("Python 3.12 upgrade notes", "What broke and how we fixed it."),
    81: ("Python 3.11 upgrade notes", "What broke and how we fixed it."),
    50: (
        "Email templates for delivery notices",
        "The templates live in the CMS; the copy is owned by customer success.",
    ),
    44: ("k8s node pool sizing", "Three pools: system, general, memory-heavy."),
    64: (
        "Restarting checkout pods",
        "Use `kubectl rollout restart deploy/checkout`; never delete the pods by hand.",
    ),
    15: ("Zürich office access", "Badges are issued at the front desk on the ground floor."),
    38: ("Regional delivery zones", "Deliveries to Weißenfels go through the Leipzig warehouse."),
    72: ("Varnish cache rules", "Which portal pages are cached and for how long."),
    5: ("Incoterms glossary", "DAP, DDP and FCA as we use them in carrier bookings."),
    29: ("Parking garage access", "The garage under the Leipzig office opens at 6:00."),
    84: ("Locked out of your account?", "If you are locked out, the service desk resets the password in ten minutes."),
    # A third batch of targets (and two near misses).
    83: (
        "Returns of hazardous goods",
        "Damaged lithium batteries are never sent back by parcel; the carrier collects them in a UN-approved drum.",
    ),
    87: (
        "On-call compensation",
        "Each on-call week pays a flat 350 EUR, plus 50 EUR for every call-out outside office hours.",
    ),
    88: ("On-call rota swaps", "Swap weeks in the rota tool and tell the incident commander."),
    89: (
        "VAT OSS filing",
        "The One-Stop-Shop return for EU distance sales is filed every quarter by the 20th of the next month.",
    ),
    90: (
        "Forklift licence renewals",
        "Licences are renewed every five years; the training centre books the practical test.",
    ),
    51: (
        "Grafana alert routing",
        "Alerts labelled team=payments go to the payments on-call channel; severity=critical also pages the on-call "
        "engineer.",
    ),
    14: (
        "Müllabfuhr at the Leipzig warehouse",
        "Cardboard is collected on Tuesdays; broken pallets go to the recycling yard.",
    ),
    31: (
        "GDPR Art. 15 data access requests",
        "A copy of the personal data goes out within 30 days; the portal API exports the account as JSON.",
    ),
    34: ("GDPR Art. 17 erasure requests", "Accounts are deleted within 30 days unless an invoice is still open."),
    # A fourth batch of targets (and one near miss).
    10: (
        "Organisation chart and reporting lines",
        "Every team lead reports to a department head; the chart in the HR system is the source of truth, this page "
        "is a snapshot from April.",
    ),
    11: (
        "Repository layout and branch naming",
        "Branches are named feature/<ticket>, fix/<ticket> or release/<version>; main is protected and merges need "
        "two approvals.",
    ),
    59: (
        "Cron jobs in production",
        "The settlement import runs at `15 4 * * *` UTC on batch-worker-01, the dunning run at `30 6 * * 1-5`; both "
        "alert the payments on-call when they fail twice.",
    ),
    63: (
        "API documentation guidelines",
        "Every public endpoint has an example request and response; the OpenAPI file is the source, the portal "
        "renders it.",
    ),
    65: (
        "Disaster recovery drills",
        "Twice a year we restore the ledger from backup into the Amsterdam region and time it; the target is four "
        "hours.",
    ),
    74: ("Disaster recovery plan", "Contacts and priorities if a region is lost."),
    9: (
        "Bike leasing",
        "Employees can lease one bike or e-bike through the payroll provider for 36 months; the company pays the "
        "insurance.",
    ),
    # A fifth batch of targets (and one near miss).
    37: (
        "Working from abroad",
        "Employees may work from another EU country for up to 30 working days a year; tell your team lead and the "
        "people team two weeks ahead. Outside the EU the people team checks tax and insurance first.",
    ),
    53: (
        "Expense claim deadlines",
        "Submit a claim within 60 days of the expense. Claims that arrive after the month-end close are paid with the "
        "next payroll.",
    ),
    68: (
        "Post-mortem writing guide",
        "Write the post-mortem within five working days of the incident. Keep it blameless, add a timeline, and list "
        "at most three action items, each with an owner.",
    ),
    69: ("Post-mortem meeting checklist", "Book 45 minutes and invite everyone who was paged."),
    # A sixth batch of targets (and two near misses).
    4: (
        "Service level agreements for enterprise merchants",
        "Priority 1 tickets (checkout or tracking down for everyone) get a first response within 30 minutes and a "
        "workaround within 4 hours, around the clock. Priority 2 tickets get a first response within 4 business "
        "hours. For every hour we miss, the merchant gets a credit of 5% of the monthly fee, capped at 25%.",
    ),
    6: (
        "Carrier SLA scorecard",
        "On-time pickup and delivery rate per carrier, reviewed every month in the carrier performance review.",
    ),
    7: (
        "Ersthelfer und Erste-Hilfe-Kurse",
        "Im Lager Leipzig sind pro Schicht mindestens zwei Ersthelfer eingeteilt. Der Erste-Hilfe-Kurs wird alle zwei "
        "Jahre aufgefrischt; die Firma übernimmt die Kosten, die Anmeldung läuft über die Schichtleitung.",
    ),
    21: (
        "Single sign-on for internal tools",
        "All internal tools sign in through Okta. To connect a new tool, open a request with the security team; they "
        "set up the SAML app within three working days. Tools that cannot do SAML need an exception from the "
        "security lead.",
    ),
    25: (
        "Returns authorisation for damaged goods",
        "Every return from a merchant needs a return merchandise authorisation number before it reaches the returns "
        "bay; customer success issues the number in the portal. Parcels without one are refused at the gate and go "
        "back to the sender at their cost.",
    ),
    32: (
        "End-of-life hardware disposal",
        "Laptops, phones and handheld scanners that reach end of life go to Recyclon, our certified disposal partner. "
        "IT wipes every disk first and keeps the certificate of destruction for seven years. Never sell or give away "
        "old devices yourself.",
    ),
    45: (
        "PoC guidelines",
        "A PoC runs for at most six weeks, has one sponsor and a written success criterion, and never touches "
        "production data. At the end the sponsor decides: adopt, extend once, or stop.",
    ),
    48: (
        "Warehouse KPI definitions",
        "Pick accuracy is correctly picked lines divided by all picked lines; the target is 99.8%. Dock-to-stock time "
        "runs from the gate scan to the first bin scan; the target is under four hours. Warehouse ops reports both "
        "every Monday.",
    ),
    54: ("KPI dashboard access", "Ask the platform team for a Grafana viewer account; dashboards are read-only."),
    56: (
        "Booking a meeting room in Leipzig",
        "Rooms Fjord, Atlas and Kiruna are booked in the shared calendar. The canteen can be booked for team events "
        "after 15:00 through the office manager. Video equipment is in the cupboard next to Room Atlas.",
    ),
    62: (
        "Gifts and hospitality policy",
        "Gifts from suppliers, carriers or customers worth up to €50 may be kept. Anything above goes on the gifts "
        "register and needs your department head's approval. Never accept cash or vouchers, and decline invitations "
        "during a running tender.",
    ),
    67: (
        "Congés payés au bureau de Lyon",
        "Les salariés du bureau de Lyon ont droit à 25 jours ouvrés de congés payés par an. Les demandes passent par "
        "le système RH au moins deux semaines à l'avance ; le CSE est consulté pour la fermeture d'août.",
    ),
    # A seventh batch of targets.
    20: (
        "How to set up the VPN client on a new laptop",
        "Install WireGuard from the self-service software centre, then sign in at vpn.kestrel.example with your Okta "
        "account and download your personal profile. Import the profile and connect once from the office network; "
        "after that the client connects by itself. Profiles expire after 180 days.",
    ),
    36: (
        "Buoni pasto per l'ufficio di Milano",
        "I dipendenti dell'ufficio di Milano ricevono un buono pasto elettronico da 8 € per ogni giorno lavorato in "
        "sede, caricato sulla carta a inizio mese. Nei giorni di trasferta o di smart working il buono non spetta.",
    ),
    52: (
        "Ziekmelding bij de Rotterdam hub",
        "Meld je vóór 7:00 ziek bij je teamleider én bij de verzuimlijn (010 555 0199). Vanaf de derde ziektedag neemt "
        "de bedrijfsarts contact met je op. Ben je weer beter, meld je dan ook beter bij je teamleider.",
    ),
    28: (
        "Where to send supplier invoices",
        "Suppliers and carriers send PDF invoices to ap-invoices@kestrel.example, one invoice per e-mail and never to "
        "a person's own mailbox. Paper invoices go to the Leipzig office, attention Accounts Payable. Invoices without "
        "our purchase order number go back to the supplier.",
    ),
}


def _cases() -> tuple[Case, ...]:
    agenda = frozenset({AGENDA})
    people = frozenset({PARTICIPANTS})
    text = frozenset({WIKI_TEXT})
    display = frozenset({DISPLAY_IDS})
    return (
        # Whole questions.
        Case(QUESTION, MEET, "what did we decide about the hiring freeze", 212, (), ("hiring freeze",), agenda),
        Case(QUESTION, MEET, "who agreed to move the Leipzig stock count to Saturday", 268, (), ("saturday",), agenda),
        Case(QUESTION, MEET, "when is the penetration test of the checkout scheduled", 240, (), ("penetration",)),
        Case(QUESTION, MEET, "what was decided on the carrier tender for Poland", 183, (), ("tender",), agenda),
        Case(QUESTION, MEET, "did anyone follow up on the forklift battery recall", 96, (), ("recall",), agenda),
        Case(QUESTION, MEET, "when are we moving the lyon office", 320, (), ("office move lyon",), agenda),
        Case(QUESTION, WP, "why do refunds fail for quilpay orders", 1377, (), ("quilpay",)),
        Case(QUESTION, WP, "how do we rotate the VPN gateway certificates", 655, (), ("rotat", "vpn gateway")),
        Case(QUESTION, WP, "is anyone looking at the slow invoice download on the portal", 1102, (), ("slow",)),
        Case(QUESTION, WP, "where are we with the SEPA mandate import", 990, (), ("sepa mandate",)),
        Case(QUESTION, WP, "why are shipments to norway stuck at customs", 1444, (), ("norway",)),
        Case(QUESTION, WP, "why did the push opt-in rate drop on ios", 230, (), ("opt-in rate",)),
        Case(QUESTION, WIKI, "how do I request parental leave", 23, (), ("parental leave request",)),
        Case(QUESTION, WIKI, "what is the escalation path for a sev1 incident", 61, (), ("sev1",), text),
        Case(QUESTION, WIKI, "can we deploy a hotfix to production on a Friday", 8, (), ("hotfix",), text),
        Case(QUESTION, WIKI, "who has to sign off on cloud spend", 3, (), ("cloud spend",)),
        # Word forms.
        Case(FORMS, WP, "migrate the ledger database", 420, (), ("migrat",)),
        Case(FORMS, WP, "how are contractors reimbursed for travel", 877, (), ("reimburs",)),
        Case(FORMS, WP, "replacing dock scanners", 1211, (), ("replac", "scanners", "dock")),
        Case(FORMS, WP, "deprecating v1 webhooks", 530, (), ("deprecat",)),
        Case(FORMS, WP, "renewing the wildcard certificate", 1450, (), ("wildcard certificate renewal",)),
        Case(FORMS, WP, "purging old support tickets", 1030, (), ("purge",)),
        Case(FORMS, MEET, "hiring seasonal drivers", 301, (), ("hire 25 seasonal",), agenda),
        Case(FORMS, MEET, "approval of the Q3 marketing budget", 77, (), ("marketing budget", "approved"), agenda),
        Case(FORMS, MEET, "shuttle bus decided", 287, (), ("shuttle", "decision"), agenda),
        Case(FORMS, MEET, "rescheduling the inventory audit", 178, (), ("inventory audit", "rescheduled"), agenda),
        Case(FORMS, WIKI, "onboard new temps in the warehouse", 47, (), ("onboarding warehouse temps",)),
        Case(FORMS, WIKI, "configuring the label printers", 12, (), ("label printer configuration",)),
        Case(FORMS, WIKI, "cancelled carrier bookings", 58, (), ("cancellation of carrier bookings",)),
        # A phrase against the same words reordered in an older record (lower id: a tie puts it first).
        Case(PHRASE, WP, "payment reminder email", 1320, (), ("payment reminder email",)),
        Case(PHRASE, WP, "stock transfer order", 760, (), ("stock transfer order",)),
        Case(PHRASE, WP, "credit note export", 1005, (), ("credit note export",)),
        Case(PHRASE, MEET, "night shift handover", 250, (), ("night shift handover",)),
        Case(PHRASE, MEET, "returns bay layout", 199, (), ("returns bay layout",)),
        Case(PHRASE, MEET, "peak capacity planning", 310, (), ("peak capacity planning",)),
        Case(PHRASE, WIKI, "blue green deployment", 70, (), ("blue green deployment",)),
        Case(PHRASE, WIKI, "data retention policy", 55, (), ("data retention policy",)),
        # Typos.
        Case(TYPO, MEET, "forklfit safety breifing", 120, (), ("forklift safety briefing",)),
        Case(TYPO, MEET, "quartely bussines review ktl", 175, (), ("quarterly business review with ktl",)),
        Case(TYPO, MEET, "temporay racking hall d", 45, (), ("temporary racking",), agenda),
        Case(TYPO, MEET, "velocty cheks gift cards", 265, (), ("velocity checks",), agenda),
        Case(TYPO, WP, "chargback dispute evidense", 345, (), ("chargeback dispute",)),
        Case(TYPO, WP, "warehose heatmap picking", 1188, (), ("warehouse heatmap",)),
        Case(TYPO, WP, "bluetoth pairing printers", 610, (), ("bluetooth",)),
        Case(TYPO, WP, "geofense radius rotterdam", 1410, (), ("geofence",)),
        Case(TYPO, WP, "signatrue pad orlin", 1499, (), ("signature pad freezes",)),
        Case(TYPO, WIKI, "kubernets upgarde runbook", 33, (), ("kubernetes upgrade runbook",)),
        Case(TYPO, WIKI, "reconcilation marketplace payouts", 18, (), ("reconciliation of marketplace payouts",)),
        Case(TYPO, WIKI, "expence aproval thresholds", 77, (), ("expense approval thresholds",)),
        Case(TYPO, WIKI, "temprature excursions cold chain", 86, (), ("temperature excursions",)),
        # A word present verbatim beside its prefix and edit neighbours (those must not come back).
        Case(EXACT, WP, "berth", 1360, (1350, 1340), ("berth",)),
        Case(EXACT, WP, "port fee", 1290, (1270,), ("port fee",)),
        Case(EXACT, WP, "cod", 1150, (1120,), ("cod ",)),
        Case(EXACT, WP, "cart abandonment", 1420, (1405,), ("cart abandonment",)),
        Case(EXACT, MEET, "dock audit", 295, (290,), ("dock audit",)),
        Case(EXACT, MEET, "agent", 318, (315,), ("agent ",)),
        Case(EXACT, WIKI, "office lease", 66, (60,), ("office lease",)),
        # Versions and digits.
        Case(VERSION, WP, "v2.14.1", 1395, (1385,), ("v2.14.1",)),
        Case(VERSION, WP, "postgres 16.4 upgrade", 1080, (), ("16.4",)),
        Case(VERSION, WP, "ADR-0007", 1233, (), ("adr-0007",)),
        Case(VERSION, WP, "error 503 checkout", 890, (), ("error 503",)),
        Case(VERSION, MEET, "sprint 42 retro", 260, (), ("sprint 42 retro",)),
        Case(VERSION, MEET, "Q4 2025 planning", 222, (), ("q4 2025",)),
        Case(VERSION, WIKI, "ADR-0012", 27, (), ("adr-0012",)),
        Case(VERSION, WIKI, "python 3.12 upgrade", 82, (), ("python 3.12",)),
        # Technical tokens.
        Case(TECH, WP, "max_connections", 700, (), ("max_connections",)),
        Case(TECH, WP, "maxConnections", 700, (), ("max_connections",)),
        Case(TECH, WP, "max connections", 700, (), ("max_connections",)),
        Case(TECH, WP, "max retries webhook", 1255, (), ("maxretries",)),
        Case(TECH, WP, "email bounces dunning", 815, (), ("e-mail bounce",)),
        Case(TECH, WP, "#1234 export timeout", 1234, (), ("settlement file", "export timeout", "csv")),
        Case(TECH, WP, "{display_id} export timeout", 1160, (), ("timeout on the carrier rate card",), display),
        Case(TECH, WP, "utf-8 filenames", 980, (), ("utf8 filenames",)),
        Case(TECH, WP, "oauth2 client credentials", 1300, (), ("client_credentials",)),
        Case(TECH, WP, "statement timeout reporting", 1044, (), ("statement_timeout",)),
        Case(TECH, WIKI, "e-mail templates delivery", 50, (), ("email templates",)),
        Case(TECH, WIKI, "k8s node pools", 44, (), ("k8s",)),
        Case(TECH, WIKI, "kubectl rollout restart", 64, (), ("kubectl",), text),
        # German folding (and one Nordic name).
        Case(GERMAN, WP, "hauptstrasse address validation", 1015, (), ("hauptstraße",)),
        Case(GERMAN, WP, "Bahnhofstraße label", 566, (), ("bahnhofstrasse",)),
        Case(GERMAN, WP, "Mueller Gdansk ramp", 1333, (), ("müller",)),
        Case(GERMAN, WP, "Soren Kjaer rate card", 1066, (), ("søren",)),
        Case(GERMAN, MEET, "Koehler overtime", 205, (), ("köhler",), agenda),
        Case(GERMAN, WIKI, "Zuerich office", 15, (), ("zürich",)),
        Case(GERMAN, WIKI, "Weissenfels deliveries", 38, (), ("weißenfels",), text),
        # One real content word and one the corpus never saw.
        Case(UNKNOWN, WP, "escrow flurbish", 1099, (), ("escrow",)),
        Case(UNKNOWN, WP, "pallet wrapping zorbulon", 444, (), ("wrapping",)),
        Case(UNKNOWN, WP, "sensor calibration florpish", 1366, (), ("calibration",)),
        Case(UNKNOWN, MEET, "tachograph wibblequark", 232, (), ("tachograph",)),
        Case(UNKNOWN, MEET, "drone qwixotic", 303, (), ("drone",)),
        Case(UNKNOWN, WIKI, "varnish snorkplex", 72, (), ("varnish",)),
        Case(UNKNOWN, WIKI, "incoterms blarfen", 5, (), ("incoterms",)),
        # Old deep content at scale.
        Case(OLD, WP, "carrier api drops customs reference", 40, (), ("drops the customs reference",)),
        Case(OLD, WP, "overtime second sign-off works council", 85, (), ("second sign-off",)),
        Case(OLD, WP, "settlement files cut midnight", 130, (), ("midnight",)),
        Case(OLD, WP, "label printer firmware rollback", 200, (), ("firmware rollback",)),
        Case(OLD, WP, "eori number commercial invoice", 15, (), ("eori",)),
        Case(OLD, WP, "gdansk invoices pln ecb rate", 60, (), ("pln",)),
        Case(OLD, MEET, "paper delivery notes lyon", 12, (), ("paper delivery notes",), agenda),
        Case(OLD, MEET, "chargebacks under 25 eur accepted", 33, (), ("under 25 eur",), agenda),
        Case(OLD, MEET, "pagernest pager", 58, (), ("pagernest",), agenda),
        Case(OLD, MEET, "ledger cut-off third working day", 25, (), ("third working day",), agenda),
        Case(OLD, MEET, "insurance broker forklift incident log", 5, (), ("insurance broker",), agenda),
        Case(OLD, MEET, "meeting with Oksana Kovalenko", 70, (), ("oksana",), people),
        Case(OLD, MEET, "Rafael Quintero", 185, (), ("quintero",), people),
        # Stopword-heavy questions.
        Case(STOP, MEET, "what was it that we had said about the mezzanine", 241, (), ("mezzanine",), agenda),
        Case(STOP, MEET, "did we ever get to the bottom of the smoke detector thing", 275, (), ("smoke",), agenda),
        Case(STOP, MEET, "when will they be paying out the bonus", 329, (), ("bonus",), agenda),
        Case(STOP, WP, "how is the thing with the tote washer going", 1177, (), ("tote washer",)),
        Case(STOP, WP, "is there any update on the one about the duplicate payslips", 925, (), ("duplicate payslips",)),
        Case(STOP, WP, "what should we do now that the one for the customs desk is full", 320, (), ("is full",)),
        Case(STOP, WIKI, "where can i find what we have on the parking garage", 29, (), ("parking garage",)),
        Case(STOP, WIKI, "what do i do if i am locked out of my account", 84, (), ("locked out",)),
        # Gibberish: nothing may come back.
        Case(GIBBERISH, WP, "zzqx frobnicate vlemp", None),
        Case(GIBBERISH, WP, "blorptang quasimodal", None),
        Case(GIBBERISH, MEET, "xyzzy plugh glorf", None),
        Case(GIBBERISH, MEET, "qwrtzp vbnmq", None),
        Case(GIBBERISH, WIKI, "snarfle gnobwick", None),
        Case(GIBBERISH, WIKI, "wuggle thrimble", None),
        # The targets above asked another way: requests, short forms, other word orders and forms,
        # other spellings of a technical word, the same typo class on other words.
        Case(REPHRASED, WP, "find the ticket about refunds failing with quilpay", 1377, (), ("quilpay",)),
        Case(REPHRASED, WP, "show me the work package on rotating VPN gateway certs", 655, (), ("rotat", "vpn")),
        Case(REPHRASED, WP, "any news on shipments to Norway stuck in customs clearance?", 1444, (), ("norway",)),
        Case(REPHRASED, WP, "Quilpay refund failures", 1377, (), ("quilpay",)),
        Case(REPHRASED, WP, "SEPA-mandate import: status?", 990, (), ("sepa mandate",)),
        Case(REPHRASED, WP, "is there an issue for the iOS push opt-in drop", 230, (), ("opt-in rate",)),
        Case(REPHRASED, WP, "ledger DB migrations", 420, (), ("migrat",)),
        Case(REPHRASED, WP, "reimbursing contractors' travel expenses", 877, (), ("reimburs",)),
        Case(REPHRASED, WP, "scanner replacements at the docks", 1211, (), ("replac", "scanners", "dock")),
        Case(REPHRASED, WP, "webhook v1 deprecation notice", 530, (), ("deprecat",)),
        Case(REPHRASED, WP, "renew wildcard certs", 1450, (), ("wildcard certificate renewal",)),
        Case(REPHRASED, WP, "purging closed tickets", 1030, (), ("purge",)),
        Case(REPHRASED, WP, "reimbursment contractors travel", 877, (), ("reimburs",)),
        Case(REPHRASED, WP, "chargeback evidance upload failing", 345, (), ("chargeback dispute",)),
        Case(REPHRASED, WP, "the payment reminder email is sent twice", 1320, (), ("payment reminder email",)),
        Case(REPHRASED, WP, "credit-note export", 1005, (), ("credit note export",)),
        Case(REPHRASED, WP, "max-connections ledger", 700, (), ("max_connections",)),
        Case(REPHRASED, WP, "MAX_CONNECTIONS", 700, (), ("max_connections",)),
        Case(REPHRASED, WP, "max_retries", 1255, (), ("maxretries",)),
        Case(REPHRASED, WP, "utf8 file names", 980, (), ("utf8 filenames",)),
        Case(REPHRASED, WP, "client credentials grant oauth", 1300, (), ("client_credentials",)),
        Case(REPHRASED, WP, "emails bouncing for dunning", 815, (), ("e-mail bounce",)),
        Case(REPHRASED, WP, "2.14.1 android crash", 1395, (1385,), ("v2.14.1",)),
        Case(REPHRASED, WP, "postgres 16.4", 1080, (), ("16.4",)),
        Case(REPHRASED, WP, "adr 0007", 1233, (), ("adr-0007",)),
        Case(REPHRASED, WP, "503 errors at checkout", 890, (), ("error 503",)),
        Case(REPHRASED, WP, "Hauptstr. address validation", 1015, (), ("hauptstraße",)),
        Case(REPHRASED, WP, "Muller ramp times", 1333, (), ("müller",)),
        Case(REPHRASED, WP, "gdansk depot PLN invoices", 60, (), ("pln",)),
        Case(REPHRASED, WP, "why does the carrier API drop the customs reference", 40, (), ("drops the customs",)),
        Case(REPHRASED, WP, "when are settlement files cut", 130, (), ("midnight",)),
        Case(REPHRASED, WP, "EORI on commercial invoices", 15, (), ("eori",)),
        Case(REPHRASED, WP, "who signs off overtime above 10 hours", 85, (), ("second sign-off",)),
        Case(REPHRASED, WP, "it keeps tripping the breaker", 1177, (), ("tripping",)),
        Case(REPHRASED, MEET, "when is the checkout pen test", 240, (), ("penetration",)),
        Case(REPHRASED, MEET, "mobile code freeze 3.2", 195, (), ("code freeze",), agenda),
        Case(REPHRASED, MEET, "handover night shift", 250, (), ("night shift handover",)),
        Case(REPHRASED, MEET, "forklift saftey", 120, (), ("forklift safety briefing",)),
        Case(REPHRASED, MEET, "QBR with KTL", 175, (), ("quarterly business review with ktl",)),
        Case(REPHRASED, WIKI, "parental leave", 23, (), ("parental leave request",)),
        Case(REPHRASED, WIKI, "sign-off for cloud spending", 3, (), ("cloud spend",)),
        Case(REPHRASED, WIKI, "onboarding temps", 47, (), ("onboarding warehouse temps",)),
        Case(REPHRASED, WIKI, "label printer config", 12, (), ("label printer configuration",)),
        Case(REPHRASED, WIKI, "kubernetes upgrade run book", 33, (), ("kubernetes upgrade runbook",)),
        Case(REPHRASED, WIKI, "adr 12", 27, (), ("adr-0012",)),
        Case(REPHRASED, WIKI, "zurich office access", 15, (), ("zürich",)),
        # More of them, kept as first written (one, equally true of two records, was dropped).
        Case(
            REPHRASED,
            WP,
            "Can you check whether there's a ticket for Quilpay refunds not going through?",
            1377,
            (),
            ("quilpay",),
        ),
        Case(
            REPHRASED,
            WP,
            "I need the issue where the invoice download on the portal is really slow",
            1102,
            (),
            ("slow",),
        ),
        Case(REPHRASED, WP, "customs problems with norwegian shipments", 1444, (), ("norway",)),
        Case(REPHRASED, WP, "migration of the ledger db to postgres", 420, (), ("migrat",)),
        Case(REPHRASED, WP, "contractor travel reimbursements", 877, (), ("reimburs",)),
        Case(REPHRASED, WP, "dock door handheld scanner replacement", 1211, (), ("replac", "scanners", "dock")),
        Case(REPHRASED, WP, "wildcard cert renewal portal", 1450, (), ("wildcard certificate renewal",)),
        Case(REPHRASED, WP, "purge job for old tickets", 1030, (), ("purge",)),
        Case(REPHRASED, WP, "payment reminder e-mail twice", 1320, (), ("payment reminder email",)),
        Case(REPHRASED, WP, "stock-transfer order WMS", 760, (), ("stock transfer order",)),
        Case(REPHRASED, WP, "chargeback evidence pdf too big", 345, (), ("chargeback dispute",)),
        Case(REPHRASED, WP, "printers lose bluetooth pairing", 610, (), ("bluetooth",)),
        Case(REPHRASED, WP, "rotterdam geofence", 1410, (), ("geofence",)),
        Case(REPHRASED, WP, "signature pad frozen orlin tablet", 1499, (), ("signature pad freezes",)),
        Case(REPHRASED, WP, "berth schedules", 1360, (1350, 1340), ("berth",)),
        Case(REPHRASED, WP, "port fees rotterdam", 1290, (1270,), ("port fee",)),
        Case(REPHRASED, WP, "android v2.14.1 crash", 1395, (1385,), ("v2.14.1",)),
        Case(REPHRASED, WP, "error 503", 890, (), ("error 503",)),
        Case(REPHRASED, WP, "max_connections on the ledger primary", 700, (), ("max_connections",)),
        Case(REPHRASED, WP, "webhook maxRetries", 1255, (), ("maxretries",)),
        Case(REPHRASED, WP, "bounced e-mails dunning letters", 815, (), ("e-mail bounce",)),
        Case(REPHRASED, WP, "UTF-8 in customs upload file names", 980, (), ("utf8 filenames",)),
        Case(REPHRASED, WP, "hauptstraße leipzig validation", 1015, (), ("hauptstraße",)),
        Case(REPHRASED, WP, "søren rate card nordlys", 1066, (), ("søren",)),
        Case(REPHRASED, WP, "escrow accounts", 1099, (), ("escrow",)),
        Case(REPHRASED, WP, "dock door sensors calibrating", 1366, (), ("calibration",)),
        Case(REPHRASED, WP, "carrier API customs reference dropped", 40, (), ("drops the customs reference",)),
        Case(REPHRASED, WP, "label printer firmware rolled back", 200, (), ("firmware rollback",)),
        Case(REPHRASED, WP, "tote washer tripping breaker", 1177, (), ("tote washer",)),
        Case(REPHRASED, WP, "payslips duplicated in march", 925, (), ("duplicate payslips",)),
        Case(REPHRASED, MEET, "checkout pentest", 240, (), ("penetration",)),
        Case(REPHRASED, MEET, "forklift safety briefings", 120, (), ("forklift safety briefing",)),
        Case(REPHRASED, MEET, "capacity planning for peak", 310, (), ("peak capacity planning",)),
        Case(REPHRASED, MEET, "returns-bay layout", 199, (), ("returns bay layout",)),
        Case(REPHRASED, MEET, "sprint 42 retrospective", 260, (), ("sprint 42 retro",)),
        Case(REPHRASED, MEET, "planning Q4 2025", 222, (), ("q4 2025",)),
        Case(REPHRASED, MEET, "tachographs", 232, (), ("tachograph",)),
        Case(REPHRASED, MEET, "dock audits", 295, (290,), ("dock audit",)),
        Case(REPHRASED, WIKI, "parental leave request process", 23, (), ("parental leave request",)),
        Case(REPHRASED, WIKI, "cloud spend approval", 3, (), ("cloud spend",)),
        Case(REPHRASED, WIKI, "label printers configuration", 12, (), ("label printer configuration",)),
        Case(REPHRASED, WIKI, "cancelling a carrier booking", 58, (), ("cancellation of carrier bookings",)),
        Case(REPHRASED, WIKI, "retention policy for data", 55, (), ("data retention policy",)),
        Case(REPHRASED, WIKI, "marketplace payout reconciliation", 18, (), ("reconciliation of marketplace payouts",)),
        Case(REPHRASED, WIKI, "expense approvals threshold", 77, (), ("expense approval thresholds",)),
        Case(REPHRASED, WIKI, "email template delivery notice", 50, (), ("email templates",)),
        Case(REPHRASED, WIKI, "python 3.12", 82, (), ("python 3.12",)),
        Case(REPHRASED, WIKI, "weissenfels", 38, (), ("weißenfels",), text),
        Case(REPHRASED, WIKI, "incoterm", 5, (), ("incoterms",)),
        # A third batch: new records and phrasings, kept as first written.
        Case(QUESTION, WP, "why is the apple pay button not showing on safari", 1466, (), ("apple pay button",)),
        Case(TECH, WP, "ApplePay button safari checkout", 1466, (), ("apple pay button",)),
        Case(TECH, WP, "rate-limit on the public tracking api", 805, (), ("rate limiting", "tracking api")),
        Case(TECH, WP, "rate_limit_per_minute", 805, (), ("rate_limit_per_minute",)),
        Case(FORMS, WP, "clients getting rate limited on the tracking API", 805, (), ("rate limiting",)),
        Case(FORMS, WP, "consolidating duplicate customer accounts", 1342, (), ("consolidate duplicate",)),
        Case(GERMAN, WP, "Schaefer DATEV payroll export", 720, (), ("schäfer",)),
        Case(GERMAN, WP, "lohnabrechnung datev", 720, (), ("lohnabrechnung",)),
        Case(TYPO, WP, "klarna partail captures", 1478, (), ("partial captures",)),
        Case(
            QUESTION,
            WP,
            "find the ticket about klarna reconciliation breaking on partial captures",
            1478,
            (),
            ("partial captures",),
        ),
        Case(VERSION, WP, "upgrade kubernetes to 1.33", 950, (), ("1.33",)),
        Case(TECH, WP, "reindex portal search", 1172, (), ("re-index",)),
        Case(OLD, WP, "bank guarantee customs bond", 95, (), ("bank guarantee",)),
        Case(STOP, WP, "is there anything about the driver app draining the battery", 1390, (), ("drains battery",)),
        Case(GERMAN, WP, "societe generale payout file", 1226, (), ("société générale",)),
        Case(VERSION, WP, "pain.001.001.09", 1226, (), ("pain.001.001.09",)),
        Case(QUESTION, WP, "can you find the ticket about adding Swish for Sweden", 1488, (), ("swish",)),
        Case(VERSION, WP, "UN3481", 640, (), ("un3481",)),
        Case(
            QUESTION, WP, "what labels do we need when shipping lithium batteries", 640, (), ("dangerous goods labels",)
        ),
        Case(TECH, WP, "idempotencyKey header ignored payouts", 1312, (), ("idempotency-key",)),
        Case(PHRASE, MEET, "black friday war room", 236, (), ("war room",)),
        Case(
            QUESTION,
            MEET,
            "when do we raise the autoscaling floor for black friday",
            236,
            (),
            ("autoscaling floor",),
            agenda,
        ),
        Case(FORMS, MEET, "which customs broker did we select", 255, (), ("customs broker", "selection")),
        Case(QUESTION, MEET, "find the meeting we had at the Maasvlakte office", 255, (), ("maasvlakte",)),
        Case(GERMAN, MEET, "Jaeger four-day week pilot", 140, (), ("jäger",), agenda),
        Case(OLD, MEET, "redis sentinel failover outage", 90, (), ("sentinel",), agenda),
        Case(TECH, MEET, "min_replicas_to_write", 90, (), ("min-replicas-to-write",), agenda),
        Case(GERMAN, MEET, "meetings with Lukasz Wojcik", 118, (), ("wójcik",), people),
        Case(GERMAN, MEET, "Anais Lefort", 270, (), ("anaïs",), people),
        Case(VERSION, MEET, "psd3 gap analysis", 322, (), ("psd3",), agenda),
        Case(STOP, MEET, "so did we end up giving the go for the 4.0 release or not", 190, (), ("go for 4.0",), agenda),
        Case(QUESTION, WIKI, "how do customers return damaged lithium batteries", 83, (), ("damaged lithium",), text),
        Case(QUESTION, WIKI, "what is the on call pay per call out", 87, (), ("call-out",), text),
        Case(TECH, WIKI, "oncall compensation", 87, (), ("on-call compensation",)),
        Case(QUESTION, WIKI, "when is the one stop shop vat return due", 89, (), ("one-stop-shop",), text),
        Case(TYPO, WIKI, "vat oss filling", 89, (), ("vat oss filing",)),
        Case(FORMS, WIKI, "renewing forklift licenses", 90, (), ("forklift licence renewals",)),
        Case(FORMS, WIKI, "how are grafana alerts routed", 51, (), ("grafana alert routing",)),
        Case(TECH, WIKI, "severity=critical paging", 51, (), ("severity=critical",), text),
        Case(GERMAN, WIKI, "muellabfuhr leipzig warehouse", 14, (), ("müllabfuhr",)),
        Case(VERSION, WIKI, "gdpr art 15 data export", 31, (), ("art. 15",)),
        # A fourth batch: new records and phrasings, kept as first written.
        Case(
            QUESTION,
            WP,
            "what did Ines say about the partial refunds missing from the export",
            1138,
            (),
            ("inês", "partial refunds"),
        ),
        Case(QUESTION, WP, "the portal bug about the cookie banner", 1352, (), ("cookie banner", "portal")),
        Case(TECH, WP, "HTTP 429 Too Many Requests", 1418, (), ("too many requests",)),
        Case(QUESTION, WP, "the payments bug about payouts getting 429s", 1418, (), ("429", "payout")),
        Case(TECH, WP, "ECONNRESET", 870, (), ("econnreset",)),
        Case(TECH, WP, "OOMKilled", 1107, (), ("oomkilled",)),
        Case(TECH, WP, "db-replica-02", 1322, (), ("db-replica-02",)),
        Case(TECH, WP, "max_slot_wal_keep_size", 1322, (), ("max_slot_wal_keep_size",)),
        Case(TECH, WP, "checkout lb config sticky sessions", 765, (), ("sticky sessions",)),
        Case(TYPO, WP, "haproxy stiky sesions", 765, (), ("sticky sessions", "haproxy")),
        Case(TECH, WP, "/etc/haproxy/haproxy.cfg", 765, (), ("/etc/haproxy/haproxy.cfg",)),
        Case(TECH, WP, "dunning run cron", 582, (), ("dunning run", "cron")),
        Case(VERSION, WP, "99.95% uptime", 1076, (), ("99.95%",)),
        Case(VERSION, WP, "which ticket raised the laptop budget to 1350 euros", 488, (), ("1,350",)),
        Case(FORMS, WP, "brand color tokens", 1264, (), ("brand colour",)),
        Case(FORMS, WP, "dark theme colors", 1264, (), ("colour", "dark theme")),
        Case(TECH, WP, "sso auth broken since the idp update", 1456, (), ("sso authentication",)),
        Case(QUESTION, WP, "what broke after the ledger deploy on 23 January", 1243, (), ("23 january",)),
        Case(STOP, WP, "anything broken since friday's ledger deploy", 1243, (), ("ledger deploy", "friday")),
        Case(
            STOP,
            WP,
            "sorry for the wall of text, I've been out for two weeks and I'm still catching up on everything, and "
            "Dario mentioned at lunch that there's a ticket somewhere about the stretch film supplier changing "
            "something, I honestly can't remember who opened it or when, could you dig it up for me",
            1208,
            (),
            ("stretch film",),
        ),
        Case(OLD, WP, "what did Priya say about the relocation bonus", 270, (), ("priya", "relocation bonus")),
        Case(QUESTION, WP, "when is Helga's pallet jack arriving", 1472, (), ("helga", "pallet jacks")),
        Case(
            QUESTION,
            MEET,
            "what did Marek say about the reach truck lease",
            227,
            (),
            ("marek", "reach truck lease"),
            agenda,
        ),
        Case(VERSION, MEET, "who mentioned €1,450 per truck", 227, (), ("€1,450",), agenda),
        Case(QUESTION, MEET, "what caused the checkout outage on 17 March", 302, (), ("17 march",), agenda),
        Case(STOP, MEET, "the one where checkout was down for 38 minutes", 302, (), ("38 minutes",), agenda),
        Case(
            QUESTION,
            MEET,
            "the carrier onboarding meeting Tomasz Zielinski was in",
            156,
            (),
            ("carrier onboarding", "zieliński"),
            people,
        ),
        Case(
            STOP,
            MEET,
            "ugh, I missed last week's meeting because my train was late again, and someone told me afterwards "
            "that they finally talked about the coffee machine, do you know what they decided in the end?",
            317,
            (),
            ("coffee machine",),
            agenda,
        ),
        Case(TYPO, MEET, "monorepo descision for chekout", 208, (), ("monorepo",), agenda),
        Case(TECH, MEET, "merging the checkout repos", 208, (), ("repositories", "checkout"), agenda),
        Case(FORMS, MEET, "was the boat trip canceled", 163, (), ("boat trip", "cancelled"), agenda),
        Case(FORMS, WIKI, "organization chart", 10, (), ("organisation chart",)),
        Case(TECH, WIKI, "org chart reporting lines", 10, (), ("organisation chart",)),
        Case(TECH, WIKI, "repo branch naming", 11, (), ("branch naming",)),
        Case(QUESTION, WIKI, "how many approvals does a merge into main need", 11, (), ("two approvals",), text),
        Case(TECH, WIKI, "prod cron jobs", 59, (), ("cron jobs in production",)),
        Case(TECH, WIKI, "batch-worker-01", 59, (), ("batch-worker-01",), text),
        Case(TECH, WIKI, "api docs guidelines", 63, (), ("api documentation",)),
        Case(TYPO, WIKI, "disaster recovry dril", 65, (), ("disaster recovery drills",)),
        Case(
            STOP,
            WIKI,
            "hi! quick one, a colleague in Lyon told me over lunch that we can lease a bike through the company, is "
            "that written down anywhere?",
            9,
            (),
            ("bike leasing",),
        ),
        # A fifth batch: new records and phrasings, kept as first written.
        Case(TECH, WP, "PR checks timing out on the ledger service", 1415, (), ("pull request", "ledger service")),
        Case(FORMS, WP, "ledger service pull requests keep timing out", 1415, (), ("pull request", "ledger service")),
        Case(TECH, WP, "k8s audit logs on prod", 905, (), ("audit logging", "kubernetes")),
        Case(VERSION, WP, "ISO 27001 audit logs", 905, (), ("27001",)),
        Case(
            FORMS,
            WP,
            "we wanted to standardize the onboarding check list for all offices before the summer, is there a ticket "
            "for it",
            1060,
            (),
            ("standardise", "onboarding checklist"),
        ),
        Case(FORMS, WP, "standardizing onboarding checklists", 1060, (), ("standardise", "onboarding checklist")),
        Case(TECH, WP, "oncall escalation for unacknowledged pages", 675, (), ("acknowledge",)),
        Case(QUESTION, WP, "what happens if the on call engineer doesn't ack a page", 675, (), ("acknowledge",)),
        Case(QUESTION, WP, "what did Sara say about the late fee for the UK", 1125, (), ("sara", "late fee")),
        Case(VERSION, WP, "£70 late payment fee", 1125, (), ("£70",)),
        Case(
            QUESTION,
            WP,
            "that bug from last sprint where the confirm button is hidden on android 15",
            1483,
            (),
            ("confirm button", "android 15"),
        ),
        Case(TECH, WP, "edge to edge android 15", 1483, (), ("edge-to-edge",)),
        Case(OLD, WP, "when is the thermaq calibration certificate due", 22, (), ("thermaq",)),
        Case(TYPO, WP, "termaq calibration certificate", 22, (), ("thermaq",)),
        Case(GERMAN, WP, "hat der Betriebsrat der Arbeitszeiterfassung zugestimmt?", 48, (), ("arbeitszeiterfassung",)),
        Case(GERMAN, WP, "werden die Pausen automatisch abgezogen", 48, (), ("pausen",)),
        Case(TECH, WP, "portal api db connections leaking", 745, (), ("connection leak",)),
        Case(
            STOP,
            WP,
            "hey, sorry to bother you again, our accessibility consultant mentioned last week that a screen reader "
            "skips some fields in the portal checkout, is there a ticket for that already?",
            1275,
            (),
            ("screen reader",),
        ),
        Case(TYPO, WP, "scren reader checkout adress fields", 1275, (), ("screen reader",)),
        Case(
            QUESTION,
            WP,
            "why does the export keep timing out for kaliningrad transit shipments",
            380,
            (),
            ("kaliningrad",),
        ),
        Case(TYPO, WP, "kalinigrad T1 document", 380, (), ("kaliningrad",)),
        Case(TECH, WP, "multi-factor authentication for the vpn", 1440, (), ("mfa", "vpn")),
        Case(
            QUESTION,
            MEET,
            "what did Priya say in the March payments sync about the visa dispute threshold",
            292,
            (),
            ("priya", "dispute monitoring"),
            agenda,
        ),
        Case(VERSION, MEET, "0.9% dispute threshold", 292, (), ("0.9%",), agenda),
        Case(
            QUESTION,
            MEET,
            "what did we decide in last sprint's review about offline sync conflicts",
            308,
            (),
            ("sync conflicts",),
            agenda,
        ),
        Case(TECH, MEET, "xmas opening hours lyon crossdock", 248, (), ("christmas",), agenda),
        Case(
            STOP,
            MEET,
            "a customer is asking if we're open between christmas and new year at the lyon cross dock, did we agree "
            "anything?",
            248,
            (),
            ("christmas", "lyon"),
            agenda,
        ),
        Case(GERMAN, MEET, "was ist mit dem Nachtzuschlag?", 215, (), ("nachtzuschlag",), agenda),
        Case(GERMAN, MEET, "Schicht Zulage Nachtschicht", 215, (), ("schichtzulage",), agenda),
        Case(TECH, MEET, "DKIM record welcome emails", 145, (), ("dkim",), agenda),
        Case(FORMS, MEET, "welcome mails landing in spam", 145, (), ("spam",), agenda),
        Case(
            OLD,
            MEET,
            "did we pass the mastercard cross border fee on to sellers",
            30,
            (),
            ("cross-border fee",),
            agenda,
        ),
        Case(TECH, MEET, "crossborder fees", 30, (), ("cross-border fee",), agenda),
        Case(
            QUESTION,
            MEET,
            "what did the incident review decide about updating the status page during outages",
            325,
            (),
            ("status page", "outage"),
            agenda,
        ),
        Case(GERMAN, MEET, "meetings with Grzegorz Brzeczek", 65, (), ("brzęczek",), people),
        Case(
            STOP,
            WIKI,
            "hi, quick HR question, my partner and I want to spend a few weeks in Portugal in the autumn, am I "
            "allowed to work from abroad for a while?",
            37,
            (),
            ("working from abroad",),
        ),
        Case(TECH, WIKI, "dead line for expense claims", 53, (), ("expense claim deadlines",)),
        Case(QUESTION, WIKI, "how many days do I have to hand in an expense claim", 53, (), ("within 60 days",), text),
        Case(TECH, WIKI, "postmortem guide", 68, (), ("post-mortem writing",)),
        Case(QUESTION, WIKI, "how many action items should a post mortem have", 68, (), ("three action items",), text),
        Case(GIBBERISH, WP, "frumious bandersnatch vorpal", None),
        Case(GIBBERISH, MEET, "jabberwock snickersnee", None),
        Case(GIBBERISH, WIKI, "quuxbarrow flimflorp", None),
        # A sixth batch: new records and phrasings, kept as first written.
        Case(TECH, WIKI, "what's our SLA for priority 1 tickets", 4, (), ("service level agreements",)),
        Case(
            QUESTION,
            WIKI,
            "how much credit does a merchant get when we miss the SLA",
            4,
            (),
            ("5% of the monthly fee",),
            text,
        ),
        Case(TECH, WIKI, "how do I get SSO set up for a new internal tool", 21, (), ("single sign-on",)),
        Case(TECH, WIKI, "where is the guide for RMA numbers", 25, (), ("return merchandise authorisation",), text),
        Case(FORMS, WIKI, "who issues return authorizations", 25, (), ("returns authorisation",)),
        Case(TECH, WIKI, "what do we do with EOL laptops", 32, (), ("end-of-life hardware",)),
        Case(FORMS, WIKI, "disposing of old laptops", 32, (), ("hardware disposal",)),
        Case(TYPO, WIKI, "recylcon certificate of destruction", 32, (), ("recyclon",), text),
        Case(TECH, WIKI, "what are the rules for running a proof of concept", 45, (), ("poc guidelines",)),
        Case(QUESTION, WIKI, "how long may a PoC run", 45, (), ("poc guidelines",)),
        Case(
            TECH,
            WIKI,
            "how do we define key performance indicators for the warehouse",
            48,
            (),
            ("warehouse kpi definitions",),
        ),
        Case(FORMS, WIKI, "how do I book the canteen for a team event", 56, (), ("canteen",), text),
        Case(TYPO, WIKI, "meeting room booking leipzg", 56, (), ("booking a meeting room",)),
        Case(QUESTION, WIKI, "what's our policy on accepting gifts from carriers", 62, (), ("gifts and hospitality",)),
        Case(
            STOP,
            WIKI,
            "hey, one of the carriers sent our team a huge hamper of wine for christmas as a thank-you gift, I'm "
            "honestly not sure we're allowed to keep it, is there a rule about that somewhere?",
            62,
            (),
            ("gifts and hospitality",),
        ),
        Case(GERMAN, WIKI, "conges payes lyon", 67, (), ("congés payés",)),
        Case(GERMAN, WIKI, "combien de jours de congés par an à Lyon ?", 67, (), ("congés payés",)),
        Case(GERMAN, WIKI, "wie oft muss man den erste hilfe kurs auffrischen", 7, (), ("erste-hilfe",)),
        Case(GIBBERISH, WIKI, "banana bread recipe", None),
        Case(TECH, WP, "ETA on the order tracking page", 312, (), ("estimated time of arrival",)),
        Case(
            STOP,
            WP,
            "a big shipper just called me, quite annoyed, because the tracking page only shows the last scan and never "
            "says when the truck will actually arrive, do we have a ticket for that?",
            312,
            (),
            ("estimated time of arrival",),
        ),
        Case(VERSION, WP, "AM04 returns not booked", 1292, (), ("am04",)),
        Case(QUESTION, WP, "what did Nadia say about MD06 returns", 1292, (), ("nadia", "md06")),
        Case(TYPO, WP, "tarvic printers cutting off the barcode", 1031, (), ("tarvik",)),
        Case(VERSION, WP, "100x150 labels cut off", 1031, (), ("100 x 150",)),
        Case(TYPO, WP, "sscc barcode zaragosa", 1031, (), ("sscc",)),
        Case(TECH, WP, "nordvik POD scans", 57, (), ("nordvik", "proof of delivery")),
        Case(OLD, WP, "what penalty did we agree with nordvik for missing delivery proofs", 57, (), ("withhold 2%",)),
        Case(
            QUESTION,
            WP,
            "what did Kenji Sato say about the checkin kiosk",
            1186,
            (),
            ("kenji satō", "check-in kiosk"),
        ),
        Case(
            STOP,
            WP,
            "finance pinged me this morning, apparently the cloud bill for february was way higher than usual, "
            "something about the NAT gateway, do you know if anyone is already looking into it?",
            1232,
            (),
            ("nat gateway data processing",),
        ),
        Case(VERSION, WP, "18400 euros nat gateway", 1232, (), ("€18,400",)),
        Case(GERMAN, WP, "gibt es eine neue Dienstwagenregelung?", 612, (), ("dienstwagenregelung",)),
        Case(GERMAN, WP, "dienstwagen regelung elektroauto", 612, (), ("dienstwagenregelung",)),
        Case(VERSION, WP, "are payouts running on october 3rd", 236, (), ("3 october",)),
        Case(GIBBERISH, WP, "glimberwock sprunt", None),
        Case(GERMAN, MEET, "¿qué se decidió sobre las carretillas en Zaragoza?", 47, (), ("carretillas",), agenda),
        Case(GERMAN, MEET, "comite de seguridad zaragoza", 47, (), ("comité de seguridad",)),
        Case(
            GERMAN,
            MEET,
            "qu'est-ce qu'on a décidé pour le teletravail à Lyon ?",
            201,
            (),
            ("télétravail",),
            agenda,
        ),
        Case(
            QUESTION,
            MEET,
            "what did Dario say about baltika trans on-time pickups",
            114,
            (),
            ("dario", "baltika", "on time"),
            agenda,
        ),
        Case(TYPO, MEET, "baltica trans ontime pickup rate", 114, (), ("baltika trans", "on time"), agenda),
        Case(TECH, MEET, "postgres 12 EOL", 277, (), ("postgres 12",), agenda),
        Case(GIBBERISH, MEET, "vrooblefax kintermop", None),
        # A seventh batch: new records and phrasings, kept as first written.
        Case(
            TECH,
            WP,
            "getting this in the payout worker logs: psycopg.errors.UniqueViolation: duplicate key value violates "
            'unique constraint "payout_items_pkey" DETAIL: Key (id)=(88121) already exists.',
            1462,
            (),
            ("payout_items_pkey",),
        ),
        Case(
            TECH,
            WP,
            "driver app crash: java.lang.IllegalStateException: Fragment DeliveryDetailFragment not attached to a "
            "context",
            1347,
            (),
            ("deliverydetailfragment",),
        ),
        Case(
            TECH,
            WP,
            'sub-account users getting "403 Forbidden" on /api/v2/shipments/…/documents -- known issue?',
            1183,
            (),
            ("sub-account", "403 forbidden"),
        ),
        Case(TECH, WP, "mails from noreply@kestrel.example to hotmail bounce", 1397, (), ("noreply@kestrel.example",)),
        Case(
            VERSION,
            WP,
            '"550 5.7.515 Access denied, sending domain [kestrel.example] does not meet the required authentication '
            'level."',
            1397,
            (),
            ("5.7.515",),
        ),
        Case(TECH, WP, "carrier_timeout_ms", 1128, (), ("carrier_timeout_ms",)),
        Case(
            TECH,
            WP,
            "seeing this every night: WARN settlement-import: file SETTLE_20260301.csv skipped: checksum mismatch. "
            "what does it mean?",
            1346,
            (),
            ("checksum mismatch",),
        ),
        Case(
            QUESTION,
            WP,
            "the open ticket Amelie had about the QR code on the returns label not scanning",
            1381,
            (),
            ("amélie", "qr code"),
        ),
        Case(TECH, WP, "cant login if the email has a + in it", 1423, (), ("plus sign",)),
        Case(GERMAN, WP, "dlaczego KSeF odrzuca nasze faktury korygujące?", 1453, (), ("korygujące",)),
        Case(GERMAN, WP, "faktury korygujace odrzucone przez ksef", 1453, (), ("korygujące",)),
        Case(REPHRASED, WP, "KSeF", 1453, (), ("ksef",)),
        Case(GERMAN, WP, "ci sono ticket sui ritardi di Trasporti Bellini a Milano?", 1063, (), ("bellini",)),
        Case(
            FORMS,
            WP,
            "we cancelled bookings in the portal but the carrier still showed up to pick them up",
            1403,
            (),
            ("cancellations after 18:00",),
        ),
        Case(
            FORMS,
            WP,
            "suppliers who reschedule their delivery slot don't get a confirmation email",
            1337,
            (),
            ("rescheduled delivery slots",),
        ),
        Case(TYPO, WP, "delivry slot reshceduled but no confirmaton mail", 1337, (), ("rescheduled delivery slots",)),
        Case(TYPO, WP, "caldorra sensors keep going offline in the cold store", 1257, (), ("caldora",)),
        Case(TECH, WP, '"payment failed" on checkout with maestro cards', 1491, (), ("maestro",)),
        Case(QUESTION, WP, "WHY ARE ALL THE MAESTRO PAYMENTS FAILING AT CHECKOUT?!", 1491, (), ("maestro",)),
        Case(
            STOP,
            WP,
            "🚚🚚 trucks stuck at gate 2 again, the barrier won't open 😩 is there a ticket for this??",
            1439,
            (),
            ("gate 2", "barrier"),
        ),
        Case(
            VERSION,
            WP,
            "drivers get '413 Request Entity Too Large' when they upload POD photos",
            1363,
            (),
            ("413 request entity too large",),
        ),
        Case(
            TECH,
            WP,
            "the invoice run died with File \"invoicing/render.py\", line 88, in render_line KeyError: 'vat_rate'",
            1168,
            (),
            ("keyerror: 'vat_rate'",),
        ),
        Case(
            TECH, WP, "track.kestrel.example/s?ref= links from the sms give 404", 1093, (), ("track.kestrel.example",)
        ),
        Case(
            OLD,
            WP,
            "did anyone ever fix the Hall B printers printing every label twice?",
            155,
            (),
            ("every label twice",),
        ),
        Case(
            QUESTION,
            WP,
            "wasn't there an open ticket from Marta about the ramp heaters in Gdansk?",
            1359,
            (),
            ("marta", "ramp heaters"),
        ),
        Case(
            QUESTION,
            MEET,
            "what did we decide in mid-December 2024 about the overflow warehouse?",
            89,
            (),
            ("overflow warehouse", "decided"),
            agenda,
        ),
        Case(
            QUESTION,
            MEET,
            "what came out of last summer's incident review on the DNS outage?",
            204,
            (),
            ("dns outage",),
            agenda,
        ),
        Case(
            TECH, MEET, "did the CAB agree on a change freeze over the holidays?", 253, (), ("change freeze",), agenda
        ),
        Case(
            QUESTION,
            MEET,
            "WHO APPROVES EXCEPTIONS TO THE CHANGE FREEZE??",
            253,
            (),
            ("change freeze", "exceptions"),
            agenda,
        ),
        Case(
            FORMS,
            MEET,
            "did we agree to refund the express surcharge when shipping is late?",
            247,
            (),
            ("express surcharge",),
            agenda,
        ),
        Case(
            TECH,
            MEET,
            "when does José hand over the Zaragoza site to Lucia?",
            312,
            (),
            ("handover", "lucía"),
            agenda,
        ),
        Case(
            QUESTION,
            MEET,
            "the telematics meeting Siobhan O'Neill was in",
            233,
            (),
            ("siobhán", "telematics"),
            people,
        ),
        Case(REPHRASED, MEET, "telematics", 233, (), ("telematics",)),
        Case(
            GERMAN,
            MEET,
            "wat hebben we besloten over de parkeerplaatsen voor vrachtwagens in Rotterdam?",
            137,
            (),
            ("parkeerplaatsen",),
            agenda,
        ),
        Case(GERMAN, MEET, "co ustalono w sprawie grafiku na święta w Gdańsku?", 80, (), ("grafik",), agenda),
        Case(TECH, WIKI, "vpn setup", 20, (), ("set up the vpn",)),
        Case(STOP, WIKI, "how do i set up the vpn on my new laptop? thanks!!", 20, (), ("set up the vpn",)),
        Case(GERMAN, WIKI, "quanto vale un buono pasto a Milano?", 36, (), ("buoni pasto",)),
        Case(GERMAN, WIKI, "mi spetta il buono pasto quando sono in smart working?", 36, (), ("smart working",), text),
        Case(GERMAN, WIKI, "hoe meld ik me ziek bij de Rotterdam hub?", 52, (), ("ziekmelding",), text),
        Case(
            TECH,
            WIKI,
            "is ap-invoices@kestrel.example the right address for supplier invoices?",
            28,
            (),
            ("ap-invoices@kestrel.example",),
            text,
        ),
        Case(GIBBERISH, WP, "qwertyuiop asdfghjkl", None),
        Case(GIBBERISH, MEET, "eurovision karaoke 🎤", None),
        Case(GIBBERISH, WIKI, "sourdough starter hydration", None),
    )


CASES: tuple[Case, ...] = _cases()


# The workspace ---------------------------------------------------------------------------------


def build_workspace() -> Workspace:
    """The generated workspace with every target planted."""
    space = generate()
    for wp_id, (subject, description, comments, options) in WORK_PACKAGE_TARGETS.items():
        space.plant_work_package(wp_id, subject, description, comments, **options)
    for meeting_id, (title, items, options) in MEETING_TARGETS.items():
        space.plant_meeting(meeting_id, title, items, **options)
    for meeting_id, (name, login) in PARTICIPANT_TARGETS.items():
        user = space.add_user(name, login)
        meeting = space.meeting(meeting_id)
        meeting["participants"] = [*meeting["participants"][:4], user]
    for page_id, (title, body) in WIKI_TARGETS.items():
        space.plant_wiki_page(page_id, title, f"# {title}\n\n{body}")
    return space


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def searchable_texts(space: Workspace, tool: str) -> dict[int, str]:
    """Each record's searchable text, lower-cased (accents kept): what ``marks`` are checked against."""
    document = space.document
    if tool == WP:
        return {
            row["id"]: "\n".join(
                [row["subject"], row["description"], *(a["comment"] for a in row["activities"])]
            ).lower()
            + "\n"
            for row in document["work_packages"]
        }
    if tool == MEET:
        names = {user["id"]: user["name"] for user in document["users"]}
        return {
            row["id"]: "\n".join(
                [
                    row["title"],
                    row["location"],
                    *(
                        part
                        for item in row["agendaItems"]
                        for part in (item["title"], item["notes"], *item["outcomes"])
                    ),
                    *(names[p] for p in row["participants"]),
                ]
            ).lower()
            + "\n"
            for row in document["meetings"]
        }
    return {row["id"]: f"{row['title']}\n{row['text']}".lower() + "\n" for row in document["wiki_pages"]}


def check_cases(space: Workspace, cases: Sequence[Case]) -> None:
    """Fail unless every case's marks occur together in its target only, and no gibberish word occurs at all."""
    problems: list[str] = []
    texts = {tool: searchable_texts(space, tool) for tool in TOOLS}
    for case in cases:
        records = texts[case.tool]
        if case.expected is None:
            words = case.query.lower().split()
            hits = [i for i, t in records.items() if any(w in fold(t) for w in words)]
            if hits:
                problems.append(f"{case.query!r}: gibberish found in {hits[:5]}")
            continue
        target = records[case.expected]
        missing = [m for m in case.marks if m not in target]
        if missing or not case.marks:
            problems.append(f"{case.query!r}: target {case.expected} lacks {missing or 'marks'}")
        others = [i for i, t in records.items() if i != case.expected and all(m in t for m in case.marks)]
        if others:
            problems.append(f"{case.query!r}: marks {case.marks} also in {others[:5]}")
    if problems:
        raise AssertionError("ambiguous benchmark cases:\n  " + "\n  ".join(problems))


def resolved_query(case: Case, space: Workspace) -> str:
    if "{display_id}" in case.query and case.expected is not None:
        return case.query.replace("{display_id}", str(space.work_package(case.expected)["displayId"]))
    return case.query


# Running ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    case: Case
    query: str
    ids: tuple[int, ...]
    error: str | None = None
    coverage: str = ""  # what the search saw, for the failure lines

    @property
    def rank(self) -> int | None:
        if self.case.expected is None or self.case.expected not in self.ids:
            return None
        return self.ids.index(self.case.expected) + 1

    @property
    def hit(self) -> bool:
        if self.error is not None:
            return False
        if self.case.expected is None:
            return not self.ids
        return self.rank == 1

    @property
    def reciprocal_rank(self) -> float:
        if self.case.expected is None:
            return 1.0 if self.hit else 0.0
        return 1.0 / self.rank if self.rank else 0.0

    @property
    def decoys_returned(self) -> tuple[int, ...]:
        return tuple(d for d in self.case.decoys if d in self.ids)


def arguments(case: Case, query: str) -> dict[str, Any]:
    if case.tool == WIKI:
        return {"query": query, "limit": 100}
    return {"query": query, "pageSize": 100}


def ids_of(tool: str, content: dict[str, Any]) -> tuple[int, ...]:
    elements: list[dict[str, Any]] = content.get("elements", [])
    if tool == WP:
        return tuple(int(e["workPackage"]["id"]) for e in elements)
    if tool == MEET:
        return tuple(int(e["meeting"]["id"]) for e in elements)
    return tuple(int(e["id"]) for e in elements)


async def call_cold(settings: Settings, case: Case, query: str) -> Outcome:
    """One tools/call through the MCP server of a fresh Application: nothing cached from another case."""
    app = Application(settings)
    try:
        async with Client(build_server(app.scope)) as client:
            result = await client.call_tool(TOOLS[case.tool], arguments(case, query))
    finally:
        await app.aclose()
    content = result.structured_content
    if result.is_error or not isinstance(content, dict):
        text = " ".join(getattr(c, "text", "") for c in result.content)
        return Outcome(case, query, (), error=text[:200] or "no structured result")
    return Outcome(case, query, ids_of(case.tool, content), coverage=coverage_of(case.tool, content))


def coverage_of(tool: str, content: dict[str, Any]) -> str:
    coverage: dict[str, Any] = content.get("coverage") or {}
    if tool == WIKI:
        return f"{coverage.get('pagesFound', 0)} pages found, {coverage.get('enriched', 0)} with text"
    return f"{coverage.get('enriched', 0)} of {coverage.get('candidates', 0)} candidates read in depth"


async def run_cases(settings: Settings, space: Workspace, cases: Sequence[Case]) -> list[Outcome]:
    return [await call_cold(settings, case, resolved_query(case, space)) for case in cases]


async def run_fixture(path: Path, space: Workspace, cases: Sequence[Case]) -> list[Outcome]:
    return await run_cases(Settings(backend="dataset", dataset_path=path), space, cases)


async def run_http(profile: str, dataset: Dataset, space: Workspace, cases: Sequence[Case]) -> list[Outcome]:
    async with FakeOpenProject({TOKEN: dataset}, profile=profile) as fake:
        settings = Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN, max_retries=1)
        return await run_cases(settings, space, cases)


# Reporting -------------------------------------------------------------------------------------


@dataclass
class ModeReport:
    mode: str
    outcomes: list[Outcome]
    seconds: float
    lacks: frozenset[str] = field(default_factory=frozenset)

    def reachable(self, outcome: Outcome) -> bool:
        return not (outcome.case.needs & self.lacks)

    def lines(self) -> list[str]:
        outcomes = self.outcomes
        cases = len(outcomes)
        hits = sum(o.hit for o in outcomes)
        mrr = sum(o.reciprocal_rank for o in outcomes) / cases if cases else 0.0
        violations = sum(len(o.decoys_returned) for o in outcomes)
        reachable = [o for o in outcomes if self.reachable(o)]
        reach_hits = sum(o.hit for o in reachable)
        lines = [
            f"mode {self.mode}: {cases} cases in {self.seconds:.1f} s",
            f"  recall@1: {hits / cases:.3f} ({hits}/{cases})  MRR: {mrr:.3f}  decoy violations: {violations}",
        ]
        if len(reachable) != cases:
            lines.append(
                f"  within the API's reach ({len(reachable)} cases; without {', '.join(sorted(self.lacks))}):"
                f" recall@1 {reach_hits / max(len(reachable), 1):.3f} ({reach_hits}/{len(reachable)})"
            )
        by_category: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in outcomes:
            by_category[outcome.case.category].append(outcome)
        lines.append("  recall@1 per category:")
        for category in CATEGORIES:
            group = by_category.get(category, [])
            if group:
                got = sum(o.hit for o in group)
                lines.append(f"    {category:<26} {got / len(group):.2f} ({got}/{len(group)})")
        failing = [o for o in outcomes if not o.hit or o.decoys_returned]
        lines.extend(self._failures("failures", [o for o in failing if self.reachable(o)]))
        lines.extend(self._failures("failures out of the API's reach", [o for o in failing if not self.reachable(o)]))
        return lines

    def _failures(self, title: str, outcomes: Iterable[Outcome]) -> list[str]:
        listed = list(outcomes)
        if not listed:
            return []
        lines = [f"  {title} ({len(listed)}):"]
        for o in listed:
            case = o.case
            where = f"[{case.category}] {case.tool} {o.query!r}"
            if o.error is not None:
                lines.append(f"    FAIL {where}: error {o.error}")
                continue
            need = f" (needs {', '.join(sorted(case.needs))})" if case.needs & self.lacks else ""
            if not o.hit:
                expected = "nothing" if case.expected is None else f"{case.expected} first (rank {o.rank or '-'})"
                lines.append(f"    FAIL {where}: expected {expected}, got {list(o.ids[:5])}{need}; {o.coverage}")
            if o.decoys_returned:
                lines.append(f"    DECOY {where}: returned {list(o.decoys_returned)}")
        return lines


async def evaluate_async(space: Workspace, cases: Sequence[Case] = CASES) -> list[ModeReport]:
    """Every case in every mode, on ``space`` (targets planted); refuses ambiguous cases first."""
    check_cases(space, cases)
    raw = json.dumps(space.document).encode()
    dataset = parse_dataset(raw, "scale benchmark dataset")
    reports: list[ModeReport] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scale-dataset.json"
        path.write_bytes(raw)
        started = time.perf_counter()
        outcomes = await run_fixture(path, space, cases)
        reports.append(ModeReport("fixture", outcomes, time.perf_counter() - started, LACKS["fixture"]))
    for profile in PROFILES:
        started = time.perf_counter()
        outcomes = await run_http(profile, dataset, space, cases)
        reports.append(ModeReport(f"http {profile}", outcomes, time.perf_counter() - started, LACKS[profile]))
    return reports


# A repeat of a meeting search that found nothing, or only meetings matching part of the query, reads
# the next 25 agendas (ADR 0066): how many of
# the meeting cases one cold call misses over 18.0 a user finds by asking again, and after how many
# calls (14 read every one of the 330 agendas).
REPEATS = 14


async def repeat_until_found(
    profile: str, dataset: Dataset, space: Workspace, missed: Sequence[Outcome]
) -> list[int | None]:
    """Per missed case, the call (1 = the cold one) whose answer first puts the target first, asking
    again with one Application, so its caches are warm; None if it never did within ``REPEATS``."""
    found: list[int | None] = []
    async with FakeOpenProject({TOKEN: dataset}, profile=profile) as fake:
        settings = Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN, max_retries=1)
        for outcome in missed:
            app = Application(settings)
            first: int | None = None
            try:
                async with Client(build_server(app.scope)) as client:
                    for call in range(1, REPEATS + 1):
                        result = await client.call_tool(TOOLS[MEET], arguments(outcome.case, outcome.query))
                        content = result.structured_content
                        ids = ids_of(MEET, content) if isinstance(content, dict) else ()
                        if ids and ids[0] == outcome.case.expected:
                            first = call
                            break
                        notes = " ".join(content.get("notes") or ()) if isinstance(content, dict) else ""
                        if "repeating this search reads" not in notes:  # asking again changes nothing
                            break
            finally:
                await app.aclose()
            found.append(first)
    return found


def repeat_lines(profile: str, found: Sequence[int | None]) -> list[str]:
    within = [sum(1 for call in found if call is not None and call <= limit) for limit in (2, 4, REPEATS)]
    return [
        f"mode http {profile}, meeting cases a cold call missed, asked again (ADR 0066): {len(found)}; "
        f"first by the 2nd call {within[0]}, by the 4th {within[1]}, by the {REPEATS}th {within[2]}"
    ]


def main() -> None:
    started = time.perf_counter()
    space = build_workspace()
    document = space.document
    print(
        "relevance at scale through the MCP tools, cold caches (a fresh Application per case): "
        f"{len(document['work_packages'])} work packages, {len(document['meetings'])} meetings, "
        f"{len(document['wiki_pages'])} wiki pages, {len(CASES)} cases"
    )
    reports = asyncio.run(evaluate_async(space))
    for report in reports:
        print("\n".join(report.lines()))
    dataset = parse_dataset(json.dumps(document).encode(), "scale benchmark dataset")
    for report in reports:
        profile = report.mode.removeprefix("http ")
        if profile != "18.0":
            continue
        missed = [o for o in report.outcomes if o.case.tool == MEET and not o.hit and o.case.expected is not None]
        print("\n".join(repeat_lines(profile, asyncio.run(repeat_until_found(profile, dataset, space, missed)))))
    print(f"total: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
