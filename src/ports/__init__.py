"""Abstract repository ports: what the application needs from wherever data lives."""

from openproject_mcp.ports.repositories import (
    ApiSpecRepository,
    AttachmentRepository,
    CapabilityRepository,
    InstanceRepository,
    MeetingRepository,
    MetadataRepository,
    ProjectRepository,
    QueryRepository,
    WikiPageLinkRepository,
    WikiPageRepository,
    WorkPackageRepository,
)
from openproject_mcp.ports.writes import TimeEntryRepository, WorkPackageWriteRepository

__all__ = [
    "ApiSpecRepository",
    "AttachmentRepository",
    "CapabilityRepository",
    "InstanceRepository",
    "MeetingRepository",
    "MetadataRepository",
    "ProjectRepository",
    "QueryRepository",
    "TimeEntryRepository",
    "WikiPageLinkRepository",
    "WikiPageRepository",
    "WorkPackageRepository",
    "WorkPackageWriteRepository",
]
