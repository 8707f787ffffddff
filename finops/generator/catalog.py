"""Names and prices the generator draws from (list prices in $/hour, rounded)."""

from __future__ import annotations

SERVICES = {
    "AWS": ["EC2", "RDS", "EKS", "ElastiCache", "EMR", "SageMaker"],
    "Azure": ["VirtualMachines", "AKS", "SQLDatabase", "CosmosDB", "Databricks"],
    "GCP": ["ComputeEngine", "GKE", "CloudSQL", "Dataproc", "VertexAI"],
}

FAMILIES = {
    "AWS": {
        "m5.large": 0.096,
        "m5.xlarge": 0.192,
        "c5.2xlarge": 0.34,
        "r5.large": 0.126,
        "t3.medium": 0.0416,
        "g4dn.xlarge": 0.526,
        "m6i.2xlarge": 0.384,
        "r6g.xlarge": 0.2016,
    },
    "Azure": {
        "D4s_v5": 0.192,
        "E8s_v5": 0.504,
        "F4s_v2": 0.169,
        "B2ms": 0.0832,
        "NC6s_v3": 3.06,
        "D8as_v5": 0.344,
        "E4as_v5": 0.226,
    },
    "GCP": {
        "n2-standard-4": 0.194,
        "e2-medium": 0.0335,
        "c2-standard-8": 0.417,
        "n2-highmem-4": 0.262,
        "a2-highgpu-1g": 3.67,
        "e2-standard-8": 0.268,
        "t2d-standard-4": 0.169,
    },
}

APPLICATIONS = [
    "checkout",
    "payments",
    "search",
    "catalog",
    "auth",
    "billing-api",
    "recommender",
    "reporting",
    "etl-pipeline",
    "ml-training",
    "web-frontend",
    "inventory",
    "notifications",
    "analytics",
    "fraud-detection",
    "media-transcode",
    "chat",
    "geo-service",
    "pricing-engine",
    "audit-log",
    "data-lake",
    "feature-store",
    "mobile-backend",
    "email-sender",
    "ledger",
    "scheduler",
    "image-resizer",
    "ad-server",
    "sessions",
    "loyalty",
]
